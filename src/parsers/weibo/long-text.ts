import type { Emitted, VisitContext } from '../adapter';
import { isoTime } from '../../core/iso-time';
import { parseWeiboDateMs } from './dates';
import { postDoc } from './docs';
import type { WeiboReads } from './fans-and-comments';
import { envelopeOf } from './shapes';
import { classifySinglePost } from './single-post';

/**
 * Known edited posts whose long text could not be read again are kept in the subject's meta
 * (`long_text_due`, ids comma-separated) and read again on later visits until their current text
 * is indexed: a failed re-read is never taken for "unchanged" (the edit would be lost once the post
 * leaves the re-read window). Bounded: a user has few long posts edited at once; past the cap the
 * oldest wait for the next timeline re-read that shows them.
 */
export const LONG_TEXT_DUE_KEY = 'long_text_due';
export const LONG_TEXT_DUE_MAX = 40;

/**
 * The full text of a long post (`/statuses/extend`). A failed request or an unreadable body
 * throws; an answer without the text (the post went between the list and this read) is undefined.
 */
export async function readLongText(w: WeiboReads, ctx: VisitContext, id: string): Promise<string | undefined> {
  const res = await w.get(ctx, `${w.base}/statuses/extend?id=${id}`, 'json');
  w.tally.requests += 1;
  const content = envelopeOf(res).data?.longTextContent;
  return typeof content === 'string' && content.length > 0 ? content : undefined;
}

export function dueIds(meta: Record<string, string> | undefined): Set<string> {
  const raw = meta?.[LONG_TEXT_DUE_KEY];
  return new Set(raw ? raw.split(',').filter((s) => /^\d{1,20}$/.test(s)) : []);
}

/** The meta value for the ids still due (the newest kept past the cap), or undefined when none. */
export function dueValue(ids: Iterable<string>): string | undefined {
  const all = [...ids];
  return all.length === 0 ? undefined : all.slice(-LONG_TEXT_DUE_MAX).join(',');
}

export interface DueRead {
  uid: string;
  subject: string;
  /** At most this many posts are read per visit (two requests each); the rest stay due. */
  maxPosts: number;
}

/**
 * Reads the due posts this visit's timeline pages did not show: the post (`/statuses/show`) and its
 * long text (`/statuses/extend`); each read in full is indexed again (a changed text becomes a
 * version). Returns the ids still due: those whose reads failed or were not reached. A post the
 * site says is gone is no longer due (the tombstone checks decide what it means).
 */
export async function* readDuePosts(w: WeiboReads, ctx: VisitContext, ids: readonly string[], d: DueRead): AsyncGenerator<Emitted, string[], void> {
  const still: string[] = [];
  let n = 0;
  for (const id of ids) {
    if (n >= d.maxPosts) {
      still.push(id);
      continue;
    }
    n += 1;
    let res;
    try {
      res = await w.get(ctx, `${w.base}/statuses/show?id=${id}`, 'json');
      w.tally.requests += 1;
    } catch (err) {
      still.push(id);
      ctx.logger.debug({ subject: d.subject, post_id: id, err: (err as Error).message }, 'due long text: post unreadable; read again on a later visit');
      continue;
    }
    const verdict = classifySinglePost(res);
    if (verdict.kind === 'gone' || verdict.kind === 'not_found') continue;
    const m = verdict.kind === 'active' ? verdict.post : undefined;
    if (!m) {
      still.push(id);
      continue;
    }
    let text = m.text ?? '';
    if (m.isLongText) {
      let long;
      try {
        long = await readLongText(w, ctx, id);
      } catch {
        still.push(id);
        continue;
      }
      if (long === undefined) continue;
      text = long;
    }
    const createdMs = parseWeiboDateMs(m.created_at, res.fetchedAtMs);
    yield { kind: 'doc', doc: postDoc(id, m, text, d.uid, res.fetchedAtMs, w.base, d.subject, createdMs, isoTime(res.fetchedAtMs)) };
  }
  return still;
}
