import { ErrorCodes, FreshetError } from '../../core/errors';
import { parseJsonObject } from '../json';

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
/** Messages the site sends with `ok:0` when it throttles (spec §1.7); never matched on `verify`, which every user object contains. */
const THROTTLE_MSG = /操作过于频繁|访问过于频繁|请输入验证码|verify_code/;
const THROTTLE_BACKOFF_MS = 60_000;

/**
 * Parses a body and classifies the API's soft errors, which arrive with HTTP 200: `ok:-100` is a
 * login wall, a body with a `url` and no `data` is a captcha. Neither may be parsed as data.
 */
export function parseEnvelope(text: string, url: string): Envelope {
  // A stale or missing cookie is answered with a redirect to the login page: its HTML is no data.
  if (LOGIN_URL.test(url)) {
    throw new FreshetError(ErrorCodes.loginRequired, 'non_retryable', 'redirected to a login page', { url: url.replace(/\?.*$/, '') });
  }
  const body = parseJsonObject(text, url);
  const env = body as Envelope;
  if (env.ok === -100) {
    throw new FreshetError(ErrorCodes.loginRequired, 'non_retryable', `login required (${env.msg ?? 'ok:-100'})`, { url, redirect: env.url });
  }
  if (env.ok !== 1 && env.url && !env.data) {
    throw new FreshetError(ErrorCodes.captcha, 'non_retryable', `verification required: ${env.url}`, { url, redirect: env.url });
  }
  // `ok:0` with a rate-limit message is no end of list: reading it as one would cut the visit short.
  if (env.ok !== 1 && typeof env.msg === 'string' && THROTTLE_MSG.test(env.msg)) {
    throw new FreshetError(ErrorCodes.rateLimitedBody, 'throttled', `rate limited: ${env.msg}`, { url }, undefined, THROTTLE_BACKOFF_MS);
  }
  // Before about 2018 the payload sat next to `ok` without a `data` wrapper: read both the same way.
  if (!env.data && (env.cards || env.userInfo || env.cardlistInfo)) {
    env.data = { userInfo: env.userInfo, tabsInfo: env.tabsInfo, cards: env.cards, cardlistInfo: env.cardlistInfo };
  }
  return env;
}

export function mblogsOf(env: Envelope): Mblog[] {
  const out: Mblog[] = [];
  for (const card of env.data?.cards ?? []) {
    if (card.card_type === 9 && card.mblog) out.push(card.mblog);
    else if (card.card_type === 11) for (const g of card.card_group ?? []) if (g.card_type === 9 && g.mblog) out.push(g.mblog);
  }
  return out;
}
