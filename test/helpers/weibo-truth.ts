import type { Era, TruthPost, World } from '../../src/simsite';

const CHINA_OFFSET_MS = 8 * 3_600_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const chinaDay = (ms: number): number => Math.floor((ms + CHINA_OFFSET_MS) / DAY_MS);

/**
 * What a correct parser can know of a publication time, from the truth and the precision of the
 * form the era prints (derived from the truth, not from freshet's parser): absolute dates are
 * exact to the second; `N分钟前` is now minus whole minutes; `今天/昨天 HH:MM` is the minute;
 * `MM-DD` and `YYYY-MM-DD` are the China day.
 */
export function expectedCreatedMs(era: Era, createdMs: number, nowMs: number): number {
  if (era === 'modern2022') return Math.floor(createdMs / 1000) * 1000;
  const diff = nowMs - createdMs;
  if (diff < MINUTE_MS) return nowMs;
  if (diff < HOUR_MS) return nowMs - Math.floor(diff / MINUTE_MS) * MINUTE_MS;
  const dayDiff = chinaDay(nowMs) - chinaDay(createdMs);
  if (dayDiff === 0 && diff < 6 * HOUR_MS) return nowMs - Math.floor(diff / HOUR_MS) * HOUR_MS;
  if (dayDiff <= 1) return Math.floor(createdMs / MINUTE_MS) * MINUTE_MS;
  return chinaDay(createdMs) * DAY_MS - CHINA_OFFSET_MS;
}

/** A count as the era prints it, read back: `43.4万` keeps one decimal, `100万+` is a floor. */
export function expectedCount(era: Era, n: number): number {
  if (era === 'legacy2017') return n;
  if (era === 'classic2019') return n >= 1_000_000 ? 1_000_000 : n;
  if (n >= 100_000_000) return Math.floor(n / 10_000_000) * 10_000_000;
  if (n >= 10_000) return Math.floor(n / 1_000) * 1_000;
  return n;
}

/** The normalised `posts` fields freshet must produce for a truth row fetched at `nowMs`. */
export function expectedPost(world: World, era: Era, t: TruthPost, nowMs: number): Record<string, unknown> {
  const user = world.users[t.userIndex]!;
  return {
    id: t.id,
    text: t.text.trim(),
    hashtags: t.topics,
    mentions: t.mentions,
    links: [...t.html.matchAll(/href='(http:\/\/t\.cn\/[^']+)'/g)].map((m) => m[1]!),
    created_at: new Date(expectedCreatedMs(era, t.createdMs, nowMs)).toISOString(),
    source: t.source || undefined,
    region: era === 'modern2022' ? t.regionName.replace(/^发布于\s*/, '') : undefined,
    counts: { reposts: expectedCount(era, t.repostsCount), comments: expectedCount(era, t.commentsCount), likes: expectedCount(era, t.attitudesCount) },
    repost_of: t.repostOf ?? undefined,
    author: {
      id: String(t.uid), name: user.screenName, followers: expectedCount(era, world.followersCount(t.userIndex)),
      verified: user.verified, gender: user.gender,
    },
  };
}

/** The same fields picked from an indexed (or emitted) document body. */
export function pickPost(body: Record<string, unknown>): Record<string, unknown> {
  const { id, text, hashtags, mentions, links, created_at, source, region, counts, repost_of, author } = body;
  return { id, text, hashtags, mentions, links, created_at, source, region, counts, repost_of, author };
}
