/**
 * Conditional GET (RFC 9110 §13): what a page's last response said of its version (ETag,
 * Last-Modified), kept compact in the subject's state and sent back as If-None-Match /
 * If-Modified-Since, so an unchanged page answers 304 with no body.
 */
export interface Validators {
  /** The entity tag exactly as the server sent it, `W/` prefix and quotes included. */
  etag?: string;
  /** Last-Modified, whole seconds since the epoch. */
  lastModifiedSecs?: number;
}

/** Longer tags are not kept: frontier state stays small, and Last-Modified still works. */
export const MAX_ETAG_CHARS = 96;

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name] ?? headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The validators of a 200 (or 304) response; undefined when it has none worth keeping. An ETag
 * must be a quoted string (RFC 9110 §8.8.3); a Last-Modified in the future of the response is a
 * broken clock and is not kept (an If-Modified-Since from it would hide every change).
 */
export function validatorsOf(headers: Record<string, string | string[] | undefined>, fetchedAtMs: number): Validators | undefined {
  const out: Validators = {};
  const etag = header(headers, 'etag')?.trim();
  if (etag && /^(W\/)?"[^"]*"$/.test(etag) && etag.length <= MAX_ETAG_CHARS) out.etag = etag;
  const lm = header(headers, 'last-modified');
  const ms = lm === undefined ? Number.NaN : Date.parse(lm);
  if (Number.isFinite(ms) && ms > 0 && ms <= fetchedAtMs + 60_000) out.lastModifiedSecs = Math.floor(ms / 1000);
  return out.etag === undefined && out.lastModifiedSecs === undefined ? undefined : out;
}

/** Request headers that ask "only if changed": both validators when known (the server prefers If-None-Match). */
export function conditionalHeaders(v: Validators | undefined): Record<string, string> {
  if (!v) return {};
  const h: Record<string, string> = {};
  if (v.etag !== undefined) h['if-none-match'] = v.etag;
  if (v.lastModifiedSecs !== undefined) h['if-modified-since'] = new Date(v.lastModifiedSecs * 1000).toUTCString();
  return h;
}

/**
 * One string for the frontier's packed state: `<lastModified base36>|<etag>`; '' for none. The
 * etag goes last so it may hold any character. With a strong ETag, Last-Modified is not kept: a
 * server must ignore If-Modified-Since when If-None-Match is sent (RFC 9110 §13.1.3), and a strong
 * tag changes with every change of the bytes, so it alone decides a 304 (7 bytes less per page in
 * the frontier). A weak tag keeps Last-Modified beside it, for servers whose weak tags are loose.
 */
export function packValidators(v: Validators | undefined): string {
  if (!v) return '';
  const strong = v.etag !== undefined && !v.etag.startsWith('W/');
  return `${v.lastModifiedSecs === undefined || strong ? '' : v.lastModifiedSecs.toString(36)}|${v.etag ?? ''}`;
}

export function unpackValidators(s: string | undefined): Validators | undefined {
  if (!s) return undefined;
  const bar = s.indexOf('|');
  if (bar < 0) return undefined;
  const lm = s.slice(0, bar);
  const etag = s.slice(bar + 1);
  const out: Validators = {};
  if (lm !== '') {
    const secs = Number.parseInt(lm, 36);
    if (Number.isFinite(secs)) out.lastModifiedSecs = secs;
  }
  if (etag !== '') out.etag = etag;
  return out.etag === undefined && out.lastModifiedSecs === undefined ? undefined : out;
}

/**
 * What a revisit saved when it was answered 304: one request that carried no body, and the
 * bytes of the body the last 200 had (what an unconditional GET would have fetched again).
 */
export interface ConditionalSavings {
  notModified: number;
  bytesSaved: number;
}

export const addSaving = (s: ConditionalSavings, lastBodyBytes: number): ConditionalSavings => ({ notModified: s.notModified + 1, bytesSaved: s.bytesSaved + lastBodyBytes });
