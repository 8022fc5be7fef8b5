import { z } from 'zod';
import type { Doc, Job, SubjectState } from '../core/envelope';
import type { Adapter, Emitted, VisitContext, VisitOutcome } from './adapter';
import { parseCount } from './weibo/counts';
import { parseWeiboDateMs } from './weibo/dates';
import { mblogsOf, parseEnvelope, type Mblog, type WeiboUser } from './weibo/shapes';
import { compareIds, parseRegion, postHtmlToText } from './weibo/text';

export const weiboApiConfigSchema = z.strictObject({
  type: z.literal('weibo_api'),
  /** Where the API lives, e.g. https://m.weibo.cn or the local simsite. */
  base_url: z.url(),
  /** Deep history: how many timeline pages a first visit may read. */
  first_visit_page_limit: z.number().int().min(1).default(50),
  /** Later visits stop at the watermark, or after this many pages. */
  page_limit: z.number().int().min(1).default(10),
  /** Fetch the long-text endpoint for truncated posts. */
  long_text: z.boolean().default(true),
  /** Refresh the profile (users document, follower count) every N visits. */
  profile_every_visits: z.number().int().min(1).default(10),
  /** Write a post-metrics snapshot of every post seen on a visit. */
  post_metrics: z.boolean().default(true),
});

export type WeiboApiConfig = z.infer<typeof weiboApiConfigSchema>;

const PLATFORM = 'weibo';

/** The microblog JSON API (shapes: shared/specs/social-api-shapes.md §1): user timelines. */
export class WeiboApiAdapter implements Adapter {
  readonly type = 'weibo_api';
  private readonly base: string;

  constructor(private readonly config: WeiboApiConfig) {
    this.base = config.base_url.replace(/\/+$/, '');
  }

  accepts(subject: string): boolean {
    return subject.startsWith(`${PLATFORM}:user:`);
  }

  async *visit(job: Job, ctx: VisitContext): AsyncGenerator<Emitted, VisitOutcome, void> {
    const uid = job.subject.slice(`${PLATFORM}:user:`.length);
    const state: SubjectState = { ...job.state, meta: { ...job.state.meta } };
    let requests = 0;
    let containerId = state.meta?.['containerid'];

    if (!containerId || state.visits % this.config.profile_every_visits === 0) {
      const res = await ctx.fetchText(`${this.base}/api/container/getIndex?type=uid&value=${uid}&containerid=100505${uid}`, 'json');
      requests += 1;
      const env = parseEnvelope(res.text, res.url);
      const info = env.data?.userInfo;
      if (env.ok !== 1 || !info) {
        // `这里还没有内容` on a profile: deleted account or bad id. Not a ban, not an error.
        return { state: { ...state, status: 'gone', visits: state.visits + 1, lastVisitMs: res.fetchedAtMs }, newPostTimesMs: [], pageLimitHit: false, requests };
      }
      containerId = env.data?.tabsInfo?.tabs?.find((t) => t.tabKey === 'weibo')?.containerid ?? `107603${uid}`;
      state.meta = { ...state.meta, containerid: containerId };
      const followers = parseCount(info.followers_count);
      if (followers !== undefined) state.followers = followers;
      yield { kind: 'doc', doc: userDoc(uid, info, res.fetchedAtMs, job.subject) };
    }

    const limit = state.watermark ? this.config.page_limit : this.config.first_visit_page_limit;
    const seen = new Set<string>();
    const newTimes: number[] = [];
    let watermark = state.watermark;
    let pageLimitHit = false;
    let lastFetchMs = ctx.nowMs();
    for (let page = 1; page <= limit; page++) {
      const res = await ctx.fetchText(`${this.base}/api/container/getIndex?type=uid&value=${uid}&containerid=${containerId}&page=${page}`, 'json');
      requests += 1;
      lastFetchMs = res.fetchedAtMs;
      const env = parseEnvelope(res.text, res.url);
      if (env.ok !== 1) break; // `ok:0`: past the last page
      const posts = mblogsOf(env);
      if (posts.length === 0) break;
      let reachedKnown = false;
      for (const m of posts) {
        const id = String(m.id ?? m.mid ?? '');
        if (!/^\d+$/.test(id) || seen.has(id)) continue;
        seen.add(id);
        const known = state.watermark !== undefined && compareIds(id, state.watermark) <= 0;
        if (this.config.post_metrics) yield { kind: 'doc', doc: metricsDoc(id, m, res.fetchedAtMs) };
        if (known) {
          // A pinned post is shown first even when old: it says nothing about where new posts end.
          if (m.mblogtype !== 2) reachedKnown = true;
          continue;
        }
        let text = m.text ?? '';
        if (m.isLongText && this.config.long_text) {
          const long = await ctx.fetchText(`${this.base}/statuses/extend?id=${id}`, 'json');
          requests += 1;
          const content = parseEnvelope(long.text, long.url).data?.longTextContent;
          if (content) text = content;
        }
        const doc = postDoc(id, m, text, uid, res.fetchedAtMs, this.base, job.subject);
        const at = Date.parse(String(doc.body['created_at']));
        if (Number.isFinite(at)) newTimes.push(at);
        if (!watermark || compareIds(id, watermark) > 0) watermark = id;
        yield { kind: 'doc', doc };
      }
      if (reachedKnown) break;
      const next = env.data?.cardlistInfo;
      if (next && 'page' in next && (next.page === null || next.page === undefined) && !next.since_id) break;
      if (page === limit) pageLimitHit = true;
    }
    const lastPost = newTimes.length > 0 ? Math.max(...newTimes) : undefined;
    return {
      state: {
        ...state,
        ...(watermark ? { watermark } : {}),
        ...(lastPost !== undefined && (state.lastPostMs === undefined || lastPost > state.lastPostMs) ? { lastPostMs: lastPost } : {}),
        postsSeen: state.postsSeen + newTimes.length,
        visits: state.visits + 1,
        failures: 0,
        lastVisitMs: lastFetchMs,
      },
      newPostTimesMs: newTimes,
      pageLimitHit,
      requests,
    };
  }
}

function userDoc(uid: string, u: WeiboUser, atMs: number, subject: string): Doc {
  return {
    index: 'users',
    id: `${PLATFORM}:${uid}`,
    body: {
      platform: PLATFORM, id: uid, subject,
      screen_name: u.screen_name, gender: u.gender, description: u.description,
      verified: u.verified === true, verified_reason: u.verified_reason || undefined,
      followers_count: parseCount(u.followers_count), follow_count: parseCount(u.follow_count),
      statuses_count: parseCount(u.statuses_count), crawled_at: new Date(atMs).toISOString(),
    },
  };
}

function postDoc(id: string, m: Mblog, html: string, uid: string, atMs: number, base: string, subject: string): Doc {
  const clean = postHtmlToText(html);
  const createdMs = parseWeiboDateMs(m.created_at, atMs);
  const u = m.user ?? undefined;
  const repostOf = m.retweeted_status ? String(m.retweeted_status.id ?? m.retweeted_status.mid ?? '') : '';
  return {
    index: 'posts',
    id: `${PLATFORM}:${id}`,
    body: {
      platform: PLATFORM, id, subject, url: `${base}/detail/${id}`,
      author: {
        id: String(u?.id ?? uid), name: u?.screen_name, followers: parseCount(u?.followers_count),
        verified: u?.verified === true, gender: u?.gender,
      },
      text: clean.text, hashtags: clean.hashtags, mentions: clean.mentions, links: clean.links,
      created_at: createdMs === undefined ? undefined : new Date(createdMs).toISOString(),
      crawled_at: new Date(atMs).toISOString(),
      source: m.source || undefined, region: parseRegion(m.region_name),
      counts: { reposts: parseCount(m.reposts_count), comments: parseCount(m.comments_count), likes: parseCount(m.attitudes_count) },
      repost_of: repostOf || undefined,
    },
  };
}

function metricsDoc(id: string, m: Mblog, atMs: number): Doc {
  return {
    index: 'post-metrics',
    id: `${PLATFORM}:${id}:${atMs}`,
    body: {
      platform: PLATFORM, post_id: id, at: new Date(atMs).toISOString(),
      reposts: parseCount(m.reposts_count), comments: parseCount(m.comments_count), likes: parseCount(m.attitudes_count),
    },
  };
}
