import type { Job } from '../../core/envelope';
import { ErrorCodes, FreshetError } from '../../core/errors';
import type { Emitted, VisitContext } from '../adapter';
import { commentDocs, hotflowUrl, parseHotflow } from './comments';
import { userDoc } from './docs';
import { fansContainerId, parseFansPage } from './fans';
import { envelopeOf, type CheckedText } from './shapes';

/** What the adapter lends these reads: its request function (soft blocks classified) and its request count. */
export interface WeiboReads {
  get(ctx: VisitContext, url: string, expect: 'json' | 'html'): Promise<CheckedText>;
  base: string;
  tally: { requests: number };
}

/**
 * The hot flow of one post, by its `max_id` cursor. Old posts can answer 403 to clients without a
 * login cookie (spec §1.6): the post is kept and its comments left for a logged-in identity.
 */
export async function* readComments(w: WeiboReads, mid: string, subject: string, ctx: VisitContext, pageLimit: number): AsyncGenerator<Emitted, void, void> {
  let maxId: string | undefined;
  for (let n = 0; n < pageLimit; n++) {
    let res;
    try {
      res = await w.get(ctx, hotflowUrl(w.base, mid, maxId), 'json');
    } catch (err) {
      w.tally.requests += 1;
      if (err instanceof FreshetError && err.code === ErrorCodes.fetchHttpStatus && err.fields['status'] === 403) {
        ctx.logger.info({ subject, post_id: mid, code: err.code }, 'comments refused without login; post kept without them');
        return;
      }
      throw err;
    }
    w.tally.requests += 1;
    const page = parseHotflow(envelopeOf(res));
    for (const c of page.comments) for (const doc of commentDocs(c, mid, res.fetchedAtMs, subject)) yield { kind: 'doc', doc };
    if (page.nextMaxId === undefined) return;
    maxId = page.nextMaxId;
  }
}

export interface FansLimits {
  maxUsers: number;
  fansPageLimit: number;
  minFollowers: number;
  userPrefix: string;
}

/**
 * Pages the fans list and yields each fan as a discovered subject (due now, so the frontier's
 * FIFO-by-due order makes the crawl breadth-first). Fans under `min_followers` are yielded as
 * zombies with their users document: recorded, never visited. Stops at `max_users`.
 */
export async function* discoverFans(w: WeiboReads, uid: string, job: Job, ctx: VisitContext, l: FansLimits): AsyncGenerator<Emitted, void, void> {
  const depth = (job.state.depth ?? 0) + 1;
  let room = l.maxUsers - (ctx.subjectCount ? await ctx.subjectCount() : 0);
  for (let sinceId: number | undefined = 1, pages = 0; sinceId !== undefined && pages < l.fansPageLimit && room > 0; pages++) {
    const res = await w.get(ctx, `${w.base}/api/container/getIndex?containerid=${fansContainerId(uid)}&since_id=${sinceId}`, 'json');
    w.tally.requests += 1;
    const page = parseFansPage(envelopeOf(res));
    for (const fan of page.fans) {
      if (room <= 0) break;
      room -= 1;
      const subject = `${l.userPrefix}${fan.uid}`;
      const zombie = fan.followers !== undefined && fan.followers < l.minFollowers;
      if (zombie) yield { kind: 'doc', doc: userDoc(fan.uid, fan.user, res.fetchedAtMs, subject, 'zombie') };
      yield {
        kind: 'discovered', subject,
        state: { status: zombie ? 'zombie' : 'active', depth, ...(fan.followers !== undefined ? { followers: fan.followers } : {}) },
      };
    }
    // A list that does not advance would page forever: trust only a counter that moves on.
    sinceId = page.nextSinceId !== undefined && page.nextSinceId > sinceId ? page.nextSinceId : undefined;
  }
}
