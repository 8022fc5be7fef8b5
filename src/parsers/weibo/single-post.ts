import { FreshetError } from '../../core/errors';
import { goneStatusOfText, stubStatus, type GoneStatus } from './post-status';
import { parseEnvelope, type Mblog } from './shapes';
import { softBlockOfText } from './soft-block';

/**
 * What the single-post endpoint (`/statuses/show?id=`, or the `/detail/{mid}` page) says about a
 * post that went missing from its author's timeline. Only an answer that names a reason is a
 * tombstone; anything else (errors, soft blocks, an unexplained `ok:0`) is not, so a transient
 * failure can never mark a post as gone.
 *
 * - `active`: the post is there (it left the timeline for another reason: re-check later)
 * - a GoneStatus: the site says why it is gone
 * - `not_found`: `ok:0` without a reason (`这里还没有内容`); a tombstone only when it repeats
 *   (the caller counts, see tombstones.ts)
 * - `transient`: no answer that means anything (error, throttling, soft block, unknown shape)
 */
export type SinglePostVerdict =
  | { kind: 'active'; post?: Mblog }
  | { kind: 'gone'; status: GoneStatus; reason: string }
  | { kind: 'not_found'; reason: string }
  | { kind: 'transient'; reason: string };

export interface SinglePostResponse {
  url: string;
  status: number;
  text: string;
}

const RENDER_DATA = /\$render_data\s*=\s*\[/;

/** Classifies the answer (or the error) of one single-post request. */
export function classifySinglePost(res: SinglePostResponse | FreshetError | Error): SinglePostVerdict {
  if (res instanceof Error) {
    const code = res instanceof FreshetError ? res.code : 'E_UNEXPECTED';
    return { kind: 'transient', reason: code };
  }
  if (res.status !== 200) return { kind: 'transient', reason: `http_${res.status}` };
  const trimmed = res.text.trimStart();
  if (trimmed.startsWith('<')) return classifyPage(res.text);
  let env;
  try {
    env = parseEnvelope(res.text, res.url);
  } catch (err) {
    return { kind: 'transient', reason: err instanceof FreshetError ? err.code : 'E_UNEXPECTED' };
  }
  const data = env.data as (Mblog & { ok?: number }) | undefined;
  if (env.ok === 1 && data && (data.id !== undefined || data.mid !== undefined)) {
    const stub = stubStatus(data);
    return stub ? { kind: 'gone', status: stub, reason: 'stub' } : { kind: 'active', post: data };
  }
  const said = goneStatusOfText(env.msg);
  if (said) return { kind: 'gone', status: said, reason: 'message' };
  if (env.ok === 0) return { kind: 'not_found', reason: env.msg ? `ok0:${env.msg.slice(0, 40)}` : 'ok0' };
  return { kind: 'transient', reason: 'unknown_shape' };
}

/** The `/detail/{mid}` page: the post's `$render_data`, or a notice that names why it is gone. */
function classifyPage(html: string): SinglePostVerdict {
  if (RENDER_DATA.test(html)) return { kind: 'active' };
  // A verification or throttle page says nothing about the post, whatever else it says.
  const blocked = softBlockOfText(html, '');
  if (blocked) return { kind: 'transient', reason: blocked.code };
  const body = html.replace(/<script[\s\S]*?<\/script>/gi, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
  const said = goneStatusOfText(body.slice(0, 400));
  if (said) return { kind: 'gone', status: said, reason: 'page' };
  return { kind: 'transient', reason: 'page_without_post' };
}
