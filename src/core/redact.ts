/**
 * Credentials out of anything printed: `user:pass@` in a URL's authority and query parameters
 * that carry tokens. One place, so the CLI, the logs and every error say the same thing.
 */

/** Query parameters whose values are credentials (platform APIs put tokens in the query string). */
const SECRET_PARAM_RE = /([?&](?:access_token|token|auth|api_?key|key|sig|signature|password|passwd|secret|session(?:id)?|sid)=)[^&#\s"'<>]*/gi;
/**
 * `scheme://` then the userinfo up to the authority's last `@` (WHATWG splits there, so a raw `@`
 * in a password is hidden too). The authority ends at `/ ? #`, whitespace or a quote.
 */
const USERINFO_RE = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#"'<>\\]*@/gi;

/** The URL as it may appear in logs, errors and dead letters: credentials in it replaced. */
export function redactUrl(url: string): string {
  const out = url.includes('@') ? url.replace(USERINFO_RE, '$1[redacted]@') : url;
  return out.includes('?') ? out.replace(SECRET_PARAM_RE, '$1[redacted]') : out;
}

/** Every URL inside free text (an error message, a log line) with its credentials replaced. */
export function redactUrlsIn(text: string): string {
  if (!text.includes('://')) return text;
  return redactUrl(text);
}
