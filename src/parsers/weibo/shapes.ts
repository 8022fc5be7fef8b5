import { ErrorCodes, FreshetError } from '../../core/errors';
import type { FetchedText } from '../../core/visit';
import { parseJsonObject } from '../json';
import { softBlockError, softBlockOfText, THROTTLE_TEXT, VERIFY_URL } from './soft-block';

/** The parts of the microblog API's JSON that freshet reads; everything else is ignored. */
export interface Mblog {
  id?: string | number;
  mid?: string | number;
  bid?: string;
  created_at?: string;
  text?: string;
  isLongText?: boolean;
  source?: string;
  region_name?: string;
  reposts_count?: number | string;
  comments_count?: number | string;
  attitudes_count?: number | string;
  mblogtype?: number;
  retweeted_status?: Mblog | null;
  user?: WeiboUser | null;
  pic_ids?: unknown;
  pic_num?: unknown;
  pics?: unknown;
  thumbnail_pic?: unknown;
  page_info?: unknown;
  /** Times the author edited the post, and when last (`edit_at`, the created_at forms). */
  edit_count?: unknown;
  edit_at?: unknown;
  visible?: { type?: number; list_id?: number } | null;
  /** A stub for a gone post in a list: `deleted: "1"`, `state` (5 seen), `user: null`. */
  deleted?: unknown;
  state?: unknown;
}

export interface WeiboUser {
  id?: number | string;
  screen_name?: string;
  gender?: string;
  description?: string;
  verified?: boolean;
  verified_reason?: string;
  followers_count?: number | string;
  follow_count?: number | string;
  statuses_count?: number | string;
}

export interface Card {
  card_type?: number;
  mblog?: Mblog;
  user?: WeiboUser;
  card_group?: Card[];
}

export interface EnvelopeData {
  userInfo?: WeiboUser;
  tabsInfo?: { tabs?: { tabKey?: string; containerid?: string }[] };
  cards?: Card[];
  cardlistInfo?: { page?: number | null; since_id?: number | string | null; total?: number };
  longTextContent?: string;
}

export interface Envelope extends EnvelopeData {
  ok?: number;
  msg?: string;
  url?: string;
  data?: EnvelopeData;
}

const LOGIN_URL = /passport\.weibo\.|\/signin\/|\/sso\/signin|\/login\.php/i;
/** Keys that make a body data whatever else it carries (a top-level `url` included). */
const PAYLOAD_KEYS = ['data', 'cards', 'userInfo', 'cardlistInfo', 'longTextContent', 'mblog', 'status', 'statuses', 'comments', 'id', 'mid', 'text'] as const;

/**
 * Parses a body and classifies the API's soft errors, which arrive with HTTP 200: `ok:-100` is a
 * login wall (or, pointing at a captcha, a soft block); a body with a verification `url` and no
 * payload is a captcha; `操作过于频繁` is throttling; an HTML captcha page instead of JSON is a soft
 * block. None of them may be parsed as data, and none is "no posts". A data body that happens to
 * carry a top-level `url` (and no `ok`) is data.
 */
export function parseEnvelope(text: string, url: string): Envelope {
  // A stale or missing cookie is answered with a redirect to the login page: its HTML is no data.
  if (LOGIN_URL.test(url)) {
    throw new FreshetError(ErrorCodes.loginRequired, 'non_retryable', 'redirected to a login page', { url: url.replace(/\?.*$/, '') });
  }
  let body: Record<string, unknown>;
  try {
    body = parseJsonObject(text, url);
  } catch (err) {
    throw softBlockOfText(text, url) ?? err;
  }
  const env = body as Envelope;
  const target = typeof env.url === 'string' ? env.url : '';
  if (env.ok === -100) {
    // Risk control answers ok:-100 too, but with a captcha URL (dataabc/weibo-crawler#461): a soft block, not a login.
    if (VERIFY_URL.test(target)) throw softBlockError('captcha', url, `ok:-100 ${target}`, target);
    throw new FreshetError(ErrorCodes.loginRequired, 'non_retryable', `login required (${env.msg || 'ok:-100'})`, { url, redirect: env.url });
  }
  const payload = PAYLOAD_KEYS.some((k) => body[k] !== undefined && body[k] !== null);
  if (env.ok !== 1 && target && !payload && (env.ok === 0 || VERIFY_URL.test(target))) {
    throw softBlockError('captcha', url, `verification required: ${target}`, target);
  }
  // `ok:0` with a rate-limit message is no end of list: reading it as one would cut the visit short.
  if (env.ok !== 1 && typeof env.msg === 'string' && THROTTLE_TEXT.test(env.msg)) {
    throw softBlockError('too_frequent', url, env.msg);
  }
  // Neither `ok` nor any payload: an unknown answer, which must not read as an empty list.
  if (env.ok === undefined && !payload) {
    throw new FreshetError(ErrorCodes.parseShape, 'retryable', `neither data nor a known error from ${url}`, { url, keys: Object.keys(body).slice(0, 10) });
  }
  // Before about 2018 the payload sat next to `ok` without a `data` wrapper: read both the same way.
  if (!env.data && (env.cards || env.userInfo || env.cardlistInfo)) {
    env.data = { userInfo: env.userInfo, tabsInfo: env.tabsInfo, cards: env.cards, cardlistInfo: env.cardlistInfo };
  }
  return env;
}

/** A body read, with the envelope the soft-block check already parsed from it, if it did. */
export type CheckedText = FetchedText & { envelope?: Envelope };

/** The body's envelope: the one the soft-block check parsed, else parsed now. */
export function envelopeOf(res: CheckedText): Envelope {
  return res.envelope ?? parseEnvelope(res.text, res.url);
}

/** A body that carries data: `ok:1`, or (parseEnvelope has checked) no `ok` at all next to a payload. */
export function isData(env: Envelope): boolean {
  return env.ok === 1 || env.ok === undefined;
}

export function mblogsOf(env: Envelope): Mblog[] {
  const out: Mblog[] = [];
  for (const card of env.data?.cards ?? []) {
    if (card.card_type === 9 && card.mblog) out.push(card.mblog);
    else if (card.card_type === 11) for (const g of card.card_group ?? []) if (g.card_type === 9 && g.mblog) out.push(g.mblog);
  }
  return out;
}

/**
 * The next timeline page: `since_id` when the site gives one (stable while new posts arrive, spec
 * §5), else `page=` from cardlistInfo, else page + 1. Undefined when cardlistInfo says it is the end.
 */
export function nextCursor(env: Envelope, page: number): string | undefined {
  const info = env.data?.cardlistInfo;
  if (!info) return `&page=${page + 1}`;
  const since = info.since_id;
  if ((typeof since === 'number' && since > 0) || (typeof since === 'string' && /^\d+$/.test(since))) return `&since_id=${since}`;
  if (typeof info.page === 'number' && info.page > page) return `&page=${info.page}`;
  return undefined;
}
