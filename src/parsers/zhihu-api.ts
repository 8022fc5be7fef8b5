import { z } from 'zod';
import type { Job } from '../core/envelope';
import { ErrorCodes, FreshetError } from '../core/errors';
import type { Adapter, Emitted, FetchedText, VisitContext, VisitOutcome } from './adapter';
import { LIST_INCLUDE, MEMBER_INCLUDE, memberDoc, parseMember, parseMemberPage } from './zhihu/members';

export const zhihuApiConfigSchema = z.strictObject({
  type: z.literal('zhihu_api'),
  /** Where the v4 API lives, e.g. https://www.zhihu.com or the local simsite. */
  base_url: z.url(),
  /** Discover users breadth-first through followee lists. */
  discover_followees: z.boolean().default(true),
  /** Items per followees page (the API answers at most 20). */
  page_size: z.number().int().min(1).max(20).default(20),
  /** Followees pages read per discovering visit (offsets past about 5,000 are capped by the site anyway). */
  followees_page_limit: z.number().int().min(1).default(250),
  /** Re-read the followees list every N visits (the first visit always reads it). */
  followees_every_visits: z.number().int().min(1).default(30),
  /** Stop discovering once the frontier holds this many subjects (zombies included). */
  max_users: z.number().int().min(1).default(1_000_000),
  /** Members with fewer followers are recorded (users document, status `zombie`) but never visited. */
  min_followers: z.number().int().min(0).default(10),
  /** A 403 here is risk control (code 40362), lifted after a pause: the subject waits this long. */
  risk_control_backoff_secs: z.number().int().min(1).default(600),
});

export type ZhihuApiConfig = z.infer<typeof zhihuApiConfigSchema>;

const USER_PREFIX = 'zhihu:user:';

/** The Q&A members API (shapes: shared/specs/social-api-shapes.md §2): profiles and followees. */
export class ZhihuApiAdapter implements Adapter {
  readonly type = 'zhihu_api';
  private readonly base: string;

  constructor(private readonly config: ZhihuApiConfig) {
    this.base = config.base_url.replace(/\/+$/, '');
  }

  async *visit(job: Job, ctx: VisitContext): AsyncGenerator<Emitted, VisitOutcome, void> {
    const token = job.subject.slice(USER_PREFIX.length);
    const path = `${this.base}/api/v4/members/${encodeURIComponent(token)}`;
    const res = await this.fetch(ctx, `${path}?include=${encodeURIComponent(MEMBER_INCLUDE)}`);
    let requests = 1;
    let lastFetchMs = res.fetchedAtMs;
    const member = parseMember(res.text, res.url);
    yield { kind: 'doc', doc: memberDoc(member, res.fetchedAtMs, job.subject) };

    const c = this.config;
    if (c.discover_followees && job.state.visits % c.followees_every_visits === 0) {
      const depth = (job.state.depth ?? 0) + 1;
      let room = c.max_users - (ctx.subjectCount ? await ctx.subjectCount() : 0);
      // Our own offset, never `paging.next`: next is always present and, on some lists, points back
      // at the same page while is_end stays false. An empty page ends the list whatever is_end says.
      for (let page = 0, offset = 0; page < c.followees_page_limit && room > 0; page++, offset += c.page_size) {
        const list = await this.fetch(ctx, `${path}/followees?include=${encodeURIComponent(LIST_INCLUDE)}&offset=${offset}&limit=${c.page_size}`);
        requests += 1;
        lastFetchMs = list.fetchedAtMs;
        const p = parseMemberPage(list.text, list.url);
        for (const m of p.members) {
          if (room <= 0) break;
          room -= 1;
          const subject = `${USER_PREFIX}${m.url_token}`;
          const followers = typeof m.follower_count === 'number' ? m.follower_count : undefined;
          const zombie = followers !== undefined && followers < c.min_followers;
          if (zombie) yield { kind: 'doc', doc: memberDoc(m, list.fetchedAtMs, subject, 'zombie') };
          yield { kind: 'discovered', subject, state: { status: zombie ? 'zombie' : 'active', depth, ...(followers !== undefined ? { followers } : {}) } };
        }
        if (p.isEnd || p.members.length === 0 || (p.totals !== undefined && offset + p.members.length >= p.totals)) break;
      }
    }
    return {
      state: {
        ...job.state,
        ...(typeof member.follower_count === 'number' ? { followers: member.follower_count } : {}),
        visits: job.state.visits + 1, failures: 0, lastVisitMs: lastFetchMs,
      },
      newPostTimesMs: [],
      pageLimitHit: false,
      requests,
    };
  }

  /**
   * The Q&A site refuses with HTTP codes rather than soft bodies (spec §2): a 403 is a temporary
   * risk-control block (wait, do not dead-letter), a 401 a missing login.
   */
  private async fetch(ctx: VisitContext, url: string): Promise<FetchedText> {
    try {
      return await ctx.fetchText(url, 'json');
    } catch (err) {
      // Only the site's own answer: a 403 the identity pool already handled (benched) stays as it is.
      const status = err instanceof FreshetError && err.code === ErrorCodes.fetchHttpStatus ? err.fields['status'] : undefined;
      if (status === 403) {
        throw new FreshetError(ErrorCodes.rateLimitedBody, 'throttled', 'risk control (HTTP 403)', { status }, err, this.config.risk_control_backoff_secs * 1000);
      }
      if (status === 401) throw new FreshetError(ErrorCodes.loginRequired, 'non_retryable', 'login required (HTTP 401)', { status }, err);
      throw err;
    }
  }
}
