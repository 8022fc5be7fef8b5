import type { errors } from '@elastic/elasticsearch';

/**
 * Whether `err` is the search client's `ResponseError` (the node answered with an error status).
 * Told by its name, not `instanceof`: importing the client's classes loads @elastic/elasticsearch
 * (~500 modules with its transport, undici copy and Arrow helpers, ~0.3 s of CPU and tens of MiB)
 * into every process that reads a pipeline, also those that never talk to a search node.
 */
export function isResponseError(err: unknown): err is errors.ResponseError {
  return err instanceof Error && err.name === 'ResponseError' && 'meta' in err;
}

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
  suppressed?: NodeError[];
  /** Search errors (`all shards failed`) keep the detail per shard, under `reason`. */
  failed_shards?: { reason?: NodeError }[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function asNodeError(v: unknown): NodeError | undefined {
  return isObject(v) && (typeof v['type'] === 'string' || typeof v['reason'] === 'string') ? (v as NodeError) : undefined;
}

/**
 * The deepest link below `e`, following `caused_by` and `suppressed[]` (OpenSearch 3 puts the
 * reason an analyzer failed to build under `suppressed`); the first found wins ties.
 */
function chainEnd(e: NodeError, depth = 0): { cause: NodeError; depth: number } {
  let best = { cause: e, depth };
  // Deep enough for any real answer; a cyclic object from a hostile proxy must not loop.
  if (depth >= 32) return best;
  for (const child of [e.caused_by, ...(Array.isArray(e.suppressed) ? e.suppressed : [])]) {
    const c = asNodeError(child);
    if (!c) continue;
    const end = chainEnd(c, depth + 1);
    if (end.depth > best.depth) best = end;
  }
  return best;
}

/**
 * The deepest cause: the end of the error's own `caused_by` chain or of any `root_cause[]` (or
 * failed shard's) chain, whichever is deeper (the error's own chain wins ties, then the first).
 */
export function deepestCause(error: NodeError): NodeError {
  let best = chainEnd(error);
  const shards = Array.isArray(error.failed_shards) ? error.failed_shards.map((f) => (isObject(f) ? f.reason : undefined)) : [];
  for (const rc of [...(Array.isArray(error.root_cause) ? error.root_cause : []), ...shards]) {
    const r = asNodeError(rc);
    if (!r) continue;
    const end = chainEnd(r, 1);
    if (end.depth > best.depth) best = end;
  }
  return best.cause;
}

/** Lucene's parse errors go on for twenty lines of expected tokens; the first says what happened. */
const firstLine = (s: unknown): string => (typeof s === 'string' ? s.split(/\r?\n/)[0]!.trim() : '');
const MAX_CHARS = 600;

/**
 * One line: the deepest cause first, then the first root cause's and the top-level reason when
 * they say something else, e.g. `illegal_argument_exception: analyzer [cjk] has not been
 * configured in mappings (composable template [freshet-posts] template after composition is invalid)`.
 */
export function describeNodeError(error: unknown): string {
  if (typeof error === 'string') return oneLine(error);
  const e = asNodeError(error);
  if (!e) return oneLine(JSON.stringify(error) ?? String(error));
  const deep = deepestCause(e);
  const line = [deep.type, firstLine(deep.reason)].filter((s) => typeof s === 'string' && s !== '').join(': ');
  const rootReason = Array.isArray(e.root_cause) ? asNodeError(e.root_cause[0])?.reason : undefined;
  const context = [...new Set([firstLine(rootReason), firstLine(e.reason)])].filter((r) => r !== '' && r !== firstLine(deep.reason));
  return oneLine(context.length === 0 ? line : `${line} (${context.join('; ')})`);
}

function oneLine(s: string): string {
  const flat = s.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  return flat.length > MAX_CHARS ? `${flat.slice(0, MAX_CHARS - 1)}…` : flat;
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
  if (isResponseError(err)) {
    try {
      err.message = responseErrorLine(err);
    } catch {
      // A message is best effort; the original error must still reach its handler.
    }
  }
  return err;
}
