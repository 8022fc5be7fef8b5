import type { SimRequest, SimResponse } from '../http-types';

/** IMF-fixdate, as HTTP dates are written: `Sun, 06 Nov 1994 08:49:37 GMT`. */
export const httpDate = (ms: number): string => new Date(ms).toUTCString();

/** What a response's validators are: an entity tag (the state of what the page shows) and its last change. */
export interface Validators {
  /** Quoted, `W/` in front when weak (the page shows relative times that age without a change). */
  etag: string;
  lastModifiedMs: number;
}

/** Weak comparison of entity tags (RFC 9110 §8.8.3.2): the opaque parts must match. */
const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');

/**
 * `true` when the request's validators say the client holds the current representation:
 * If-None-Match (weak comparison, `*` matches) wins over If-Modified-Since, as RFC 9110 §13.2.2 orders them.
 */
export function notModified(req: SimRequest, v: Validators): boolean {
  const inm = req.headers['if-none-match'];
  if (typeof inm === 'string' && inm.trim() !== '') {
    if (inm.trim() === '*') return true;
    const want = opaque(v.etag);
    return inm.split(',').some((t) => opaque(t) === want);
  }
  const ims = req.headers['if-modified-since'];
  if (typeof ims === 'string') {
    const since = Date.parse(ims);
    // HTTP dates have whole seconds: compare at that precision.
    if (Number.isFinite(since)) return Math.floor(v.lastModifiedMs / 1000) * 1000 <= since;
  }
  return false;
}

/**
 * Adds the validators to a 200, or answers 304 (no body, validators repeated) when the request
 * already holds this state. `off`: the response goes out as it was, and conditional requests are
 * ignored (the site does not do conditional GET).
 */
export function withValidators(req: SimRequest, v: Validators, render: () => SimResponse, off = false): SimResponse {
  if (off) return render();
  const headers = { etag: v.etag, 'last-modified': httpDate(v.lastModifiedMs) };
  if ((req.method === 'GET' || req.method === 'HEAD') && notModified(req, v)) {
    return { status: 304, headers, body: '', kind: 'empty' };
  }
  const r = render();
  return r.status === 200 ? { ...r, headers: { ...r.headers, ...headers } } : r;
}
