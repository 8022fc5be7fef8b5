import type { Doc } from '../../core/envelope';
import { parseCount } from './counts';
import { parseWeiboDateMs } from './dates';
import { isData, type Envelope } from './shapes';
import { postHtmlToText } from './text';

/** A hot-flow comment (spec §1.6); replies sit in `comments` (or `false`). */
interface Comment {
  id?: number | string;
  rootid?: number | string;
  created_at?: string;
  text?: string;
  like_count?: number | string;
  /** The 2019 legacy endpoint's name for like_count. */
  like_counts?: number | string;
  total_number?: number | string;
  /** Legacy: the comment this one answers. */
  reply_id?: number | string;
  source?: string;
  user?: { id?: number | string; screen_name?: string; gender?: string } | null;
  comments?: Comment[] | false;
}

export interface HotflowPage {
  comments: Comment[];
  /** The `max_id` cursor of the next page; undefined at the end (`0`, no data, or `ok:0`). */
  nextMaxId: string | undefined;
}

/** First page without `max_id`, then the cursor the previous page gave. */
export function hotflowUrl(base: string, mid: string, maxId?: string): string {
  return `${base}/comments/hotflow?id=${mid}&mid=${mid}&max_id_type=0${maxId ? `&max_id=${maxId}` : ''}`;
}

export interface CommentsPage {
  comments: Comment[];
  /** The next `page` of the legacy endpoint; undefined past `data.max` (its page count) or on an empty page. */
  nextPage: number | undefined;
}

/** Legacy `/api/comments/show?id={mid}&page={n}` (spec §1.6): stop when `page > data.max`. */
export function commentsShowUrl(base: string, mid: string, page: number): string {
  return `${base}/api/comments/show?id=${mid}&page=${page}`;
}

/** One page of the legacy comments endpoint; `hot_data` (hot comments repeated on page 1) is left out, as they are in `data` too. */
export function parseCommentsShow(env: Envelope, page: number): CommentsPage {
  const data = isData(env) ? (env.data as { data?: unknown; max?: unknown } | undefined) : undefined;
  const comments = Array.isArray(data?.data) ? (data.data as Comment[]) : [];
  const max = parseCount(data?.max);
  return { comments, nextPage: comments.length > 0 && max !== undefined && page < max ? page + 1 : undefined };
}

export function parseHotflow(env: Envelope): HotflowPage {
  // `{"ok":0,"error_code":20101}` is an empty result, not an error.
  const data = isData(env) ? (env.data as { data?: unknown; max_id?: unknown } | undefined) : undefined;
  const comments = Array.isArray(data?.data) ? (data.data as Comment[]) : [];
  const raw = data?.max_id;
  const next = (typeof raw === 'number' && raw > 0) || (typeof raw === 'string' && /^[1-9]\d*$/.test(raw)) ? String(raw) : undefined;
  return { comments, nextMaxId: comments.length > 0 ? next : undefined };
}

/** One document per comment and per reply shown under it; ids kept as strings. */
export function commentDocs(c: Comment, postId: string, atMs: number, subject: string): Doc[] {
  const one = (x: Comment, rootId: string): Doc | undefined => {
    const id = String(x.id ?? '');
    if (!/^\d{1,20}$/.test(id)) return undefined;
    const clean = postHtmlToText(x.text ?? '');
    const createdMs = parseWeiboDateMs(x.created_at, atMs);
    const region = typeof x.source === 'string' ? x.source.replace(/^\s*来自\s*/, '').trim() : '';
    return {
      index: 'comments',
      id: `weibo:c:${id}`,
      body: {
        platform: 'weibo', id, post_id: postId, root_id: rootId, subject,
        author: { id: x.user?.id === undefined ? undefined : String(x.user.id), name: x.user?.screen_name, gender: x.user?.gender },
        text: clean.text, mentions: clean.mentions,
        created_at: createdMs === undefined ? undefined : new Date(createdMs).toISOString(),
        crawled_at: new Date(atMs).toISOString(),
        likes: parseCount(x.like_count ?? x.like_counts), replies: parseCount(x.total_number), region: region || undefined,
        reply_to: x.reply_id === undefined || x.reply_id === null ? undefined : String(x.reply_id),
      },
    };
  };
  const rootId = String(c.id ?? '');
  const docs = [one(c, rootId), ...(Array.isArray(c.comments) ? c.comments.map((r) => one(r, String(r.rootid ?? rootId))) : [])];
  return docs.filter((d): d is Doc => d !== undefined);
}
