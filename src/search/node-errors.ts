import { errors } from '@elastic/elasticsearch';

/**
 * The error object a search node answers with (`body.error`, or a bulk item's `error`). The
 * top-level `reason` is often a wrapper ("template after composition is invalid"); what went
 * wrong is at the end of a `caused_by` chain, sometimes only under one of the `root_cause` entries.
 */
export interface NodeError {
  type?: string;
  reason?: string | null;
  caused_by?: NodeError;
  root_cause?: NodeError[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function asNodeError(v: unknown): NodeError | undefined {
  return isObject(v) && (typeof v['type'] === 'string' || typeof v['reason'] === 'string') ? (v as NodeError) : undefined;
}

/** Follows `caused_by` to its end; returns the chain's last link and its depth. */
function chainEnd(e: NodeError, depth = 0): { cause: NodeError; depth: number } {
  const next = asNodeError(e.caused_by);
  // Deep enough for any real answer; a cyclic object from a hostile proxy must not loop.
  return next && depth < 32 ? chainEnd(next, depth + 1) : { cause: e, depth };
}

/**
 * The deepest cause: the end of the error's own `caused_by` chain or of any `root_cause[]`
 * entry's, whichever is deeper (the error's own chain wins ties, then the first root cause).
 */
export function deepestCause(error: NodeError): NodeError {
  let best = chainEnd(error);
  for (const rc of Array.isArray(error.root_cause) ? error.root_cause : []) {
    const r = asNodeError(rc);
    if (!r) continue;
    const end = chainEnd(r, 1);
    if (end.depth > best.depth) best = end;
  }
  return best.cause;
}

const typed = (e: NodeError): string => [e.type, e.reason].filter((s) => typeof s === 'string' && s !== '').join(': ');

/**
 * One line: the deepest cause first, then the top-level reason when it says something else,
 * e.g. `illegal_argument_exception: analyzer [cjk] has not been configured in mappings
 * (composable template [freshet-posts] template after composition is invalid)`.
 */
export function describeNodeError(error: unknown): string {
  if (typeof error === 'string') return oneLine(error);
  const e = asNodeError(error);
  if (!e) return oneLine(JSON.stringify(error) ?? String(error));
  const deep = deepestCause(e);
  const line = typed(deep);
  const top = typeof e.reason === 'string' ? e.reason : '';
  return oneLine(deep === e || top === '' || top === deep.reason ? line : `${line} (${top})`);
}

function oneLine(s: string): string {
  return s.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** What a search node said, from the body of an error answer (`{error, status}`), or undefined. */
export function nodeErrorOf(body: unknown): NodeError | string | undefined {
  if (!isObject(body)) return typeof body === 'string' && body !== '' ? body : undefined;
  const error = body['error'];
  if (typeof error === 'string') return error;
  return asNodeError(error);
}

/**
 * The one line a client `ResponseError` should print: method, path, status and the node's
 * deepest cause. The client's own message is several lines of tabs and names the wrapper first.
 */
export function responseErrorLine(err: errors.ResponseError): string {
  const params = (err.meta?.meta as { request?: { params?: { method?: string; path?: string } } } | undefined)?.request?.params;
  const where = params?.method && params.path ? `${params.method} ${params.path.split('?')[0]} ` : '';
  const cause = nodeErrorOf(err.body);
  const said = cause === undefined ? oneLine(err.message) : describeNodeError(cause);
  return `search node answered ${where}with HTTP ${err.statusCode ?? '?'}: ${said}`;
}

/** Rewrites a client ResponseError's message in place (it stays a ResponseError for status checks). */
export function withRootCause(err: unknown): unknown {
  if (err instanceof errors.ResponseError) {
    try {
      err.message = responseErrorLine(err);
    } catch {
      // A message is best effort; the original error must still reach its handler.
    }
  }
  return err;
}
