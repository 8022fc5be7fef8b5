import { parseCount } from './counts';
import { isData, type Envelope, type WeiboUser } from './shapes';

export interface Fan {
  uid: string;
  /** Undefined when the list item carries no readable count. */
  followers: number | undefined;
  user: WeiboUser;
}

export interface FansPage {
  fans: Fan[];
  /** The next page counter (`cardlistInfo.since_id`); undefined at the end of the visible list. */
  nextSinceId: number | undefined;
}

/** The fans list container of a user (spec §1.5): `since_id` is a page counter, not an id. */
export function fansContainerId(uid: string): string {
  return `231051_-_fans_-_${uid}`;
}

/**
 * One page of a fans (or follows) list. The list lives in the last card's `card_group` (earlier
 * cards can be recommendation groups); each item is a `card_type: 10` with a `user`. The end is an
 * empty list, `ok:0`, or a missing `since_id` — the platform's cap ends the list the same silent way.
 */
export function parseFansPage(env: Envelope): FansPage {
  if (!isData(env)) return { fans: [], nextSinceId: undefined };
  const cards = env.data?.cards ?? [];
  const last = cards[cards.length - 1];
  const fans: Fan[] = [];
  for (const item of last?.card_group ?? []) {
    const user = item.user;
    if (item.card_type !== 10 || !user) continue;
    const uid = String(user.id ?? '');
    if (!/^\d+$/.test(uid)) continue;
    fans.push({ uid, followers: parseCount(user.followers_count), user });
  }
  const raw = env.data?.cardlistInfo?.since_id;
  // The modern site sends the counter as a string ("2"), older ones as an int.
  const next = typeof raw === 'number' || (typeof raw === 'string' && /^\d+$/.test(raw)) ? Number(raw) : undefined;
  return { fans, nextSinceId: fans.length > 0 ? next : undefined };
}
