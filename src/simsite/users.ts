import type { Rng } from '../core/rng';
import { chance, intBetween, logNormalSample, paretoSample, pick, streamRng } from './random';
import {
  DESCRIPTIONS, EN_HANDLES, LOCATIONS, VERIFIED_REASONS, ZH_GIVEN, ZH_NICK_PARTS, ZH_NICK_TAILS, ZH_SURNAMES,
  type Lang,
} from './text/lexicon';

export interface SimUser {
  index: number;
  /** Platform uid: a 10-digit int, as in the real API. */
  uid: number;
  screenName: string;
  gender: 'm' | 'f';
  description: string;
  province: string;
  city: string;
  verified: boolean;
  verifiedType: number;
  verifiedReason: string;
  urank: number;
  mbrank: number;
  mbtype: number;
  registeredMs: number;
  /** Near-inactive account with very few followers. */
  zombie: boolean;
  postsPerDay: number;
  lang: Lang;
  positiveShare: number;
  negativeShare: number;
  longShare: number;
  /** Followers outside the simulated world: counted on the profile, never listed (the silent part of big fan lists). */
  hiddenFollowers: number;
  /** Heavy-tailed attractiveness that drives the follower graph. */
  attractiveness: number;
  /** Q&A site identity (spec §2). */
  urlToken: string;
  hexId: string;
  headline: string;
  answerCount: number;
  articlesCount: number;
}

export interface UserGenOptions {
  seed: number;
  zombieShare: number;
  medianPostsPerDay: number;
  postsPerDaySigma: number;
  startMs: number;
}

const DAY_MS = 86_400_000;

function screenNameFor(rng: Rng, lang: Lang, index: number): string {
  if (lang === 'en') return `${pick(rng, EN_HANDLES)}_${pick(rng, EN_HANDLES)}${index}`;
  const style = rng.next();
  if (style < 0.4) return `${pick(rng, ZH_SURNAMES)}${pick(rng, ZH_GIVEN)}${index}`;
  if (style < 0.8) return `${pick(rng, ZH_NICK_PARTS)}${pick(rng, ZH_NICK_TAILS)}${index}`;
  return `${pick(rng, ZH_NICK_TAILS)}_${index}`;
}

function hex32(rng: Rng): string {
  let s = '';
  for (let i = 0; i < 4; i++) s += Math.floor(rng.next() * 4294967296).toString(16).padStart(8, '0');
  return s;
}

/** One user from its own seeded stream: the same seed and index always give the same user. */
export function generateUser(index: number, uid: number, opts: UserGenOptions): SimUser {
  const rng = streamRng(opts.seed, 0x05e7, index);
  const zombie = chance(rng, opts.zombieShare);
  const lang: Lang = chance(rng, 0.15) ? 'en' : 'zh';
  const gender = chance(rng, 0.5) ? 'm' : 'f';
  const loc = pick(rng, LOCATIONS);
  const attractiveness = zombie ? 0.02 + rng.next() * 0.05 : paretoSample(rng, 1.15);
  const verified = !zombie && attractiveness > 8 && chance(rng, 0.7);
  const postsPerDay = zombie
    ? 0.002 + rng.next() * 0.01
    : Math.min(60, logNormalSample(rng, opts.medianPostsPerDay, opts.postsPerDaySigma));
  const screenName = screenNameFor(rng, lang, index);
  const positiveShare = 0.25 + rng.next() * 0.3;
  const negativeShare = 0.15 + rng.next() * 0.25;
  const hiddenFollowers = zombie ? 0 : Math.floor(attractiveness * attractiveness * 3 * (0.5 + rng.next()));
  return {
    index,
    uid,
    screenName,
    gender,
    description: pick(rng, DESCRIPTIONS),
    province: loc.province,
    city: loc.city,
    verified,
    verifiedType: verified ? (chance(rng, 0.8) ? 0 : 3) : -1,
    verifiedReason: verified ? pick(rng, VERIFIED_REASONS) : '',
    urank: zombie ? intBetween(rng, 0, 4) : intBetween(rng, 4, 48),
    mbrank: chance(rng, 0.2) ? intBetween(rng, 1, 7) : 0,
    mbtype: chance(rng, 0.2) ? 12 : 0,
    registeredMs: opts.startMs - Math.floor((30 + rng.next() * 4000) * DAY_MS),
    zombie,
    postsPerDay,
    lang,
    positiveShare,
    negativeShare,
    longShare: 0.05 + rng.next() * 0.1,
    hiddenFollowers,
    attractiveness,
    urlToken: `${lang === 'en' ? 'user' : 'zh'}-${index.toString(36)}-${Math.floor(rng.next() * 46656).toString(36)}`,
    hexId: hex32(rng),
    headline: pick(rng, DESCRIPTIONS),
    answerCount: zombie ? 0 : Math.floor(logNormalSample(rng, 5, 1.5)),
    articlesCount: zombie ? 0 : Math.floor(logNormalSample(rng, 1, 1.2)),
  };
}

/** Distinct 10-digit uids in [1e9, 8e9), drawn from the world seed. */
export function generateUids(seed: number, count: number): number[] {
  const rng = streamRng(seed, 0x01d5);
  const seen = new Set<number>();
  const uids: number[] = [];
  while (uids.length < count) {
    const uid = 1_000_000_000 + Math.floor(rng.next() * 7_000_000_000);
    if (seen.has(uid)) continue;
    seen.add(uid);
    uids.push(uid);
  }
  return uids;
}
