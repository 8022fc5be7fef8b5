import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * One canonical form per web page, so that tracking parameters, session ids, case, default ports,
 * dot segments, escapes and parameter order never make two documents of one page: the WHATWG
 * parse (scheme and host lower-cased, default port dropped, dot segments removed, IDN to punycode,
 * non-ASCII percent-encoded) plus RFC 3986 §6.2.2 escape normalisation, the fragment and
 * credentials dropped, session path parameters and configured query parameters removed, and the
 * query sorted.
 */

/** Query parameters that only say where a click came from. `*` at the end matches a prefix. */
export const DEFAULT_REMOVED_PARAMS: readonly string[] = [
  'utm_*', 'gclid', 'gclsrc', 'dclid', 'fbclid', 'msclkid', 'yclid', 'igshid', 'mc_cid', 'mc_eid', '_hsenc', '_hsmi',
  'spm', 'scm', 'from', 'share_source', 'share_medium', 'share_from', 'wfr', 'vd_source', 'ref_src', 'chksm', 'scene',
];

/** Query parameters that carry a session id when their value looks like one (see sessionValue). */
export const DEFAULT_SESSION_PARAMS: readonly string[] = ['sid', 's', 'phpsessid', 'jsessionid', 'sessionid', 'session_id', 'aspsessionid', 'cfid', 'cftoken', 'zenid', 'osCsid'];

export const canonicalConfigSchema = z.strictObject({
  /** Query parameters removed whatever their value (`utm_*` removes every `utm_` parameter); replaces the default list. */
  remove_params: z.array(z.string().min(1)).default([...DEFAULT_REMOVED_PARAMS]),
  /** Also removed, but only when the value looks like a session id (16+ letters and digits; 32 hex digits for `s`). */
  session_params: z.array(z.string().min(1)).default([...DEFAULT_SESSION_PARAMS]),
  /** Keep the query in the order the link gave it (some sites route by parameter order). */
  keep_query_order: z.boolean().default(false),
  /** Honour `<link rel="canonical">` when it names a URL in scope (same host, or what the scope allows). */
  honour_rel_canonical: z.boolean().default(true),
});

export type CanonicalConfig = z.infer<typeof canonicalConfigSchema>;

export const DEFAULT_CANONICAL_CONFIG: CanonicalConfig = canonicalConfigSchema.parse({});

const UNRESERVED = /[A-Za-z0-9\-._~]/;
/** http(s), a lower-case host without a trailing dot, an optional port, a path of unreserved characters and `/`, nothing else. */
const PLAIN_CANONICAL = /^https?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::[1-9]\d{0,4})?\/[A-Za-z0-9\-._~/]*$/;
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
const DEFAULT_PORT = /^(?:http:\/\/[^/]+:80|https:\/\/[^/]+:443)\//;

/** `%7e` → `~`, `%2f` → `%2F`: unreserved characters decoded, other escapes upper-cased (RFC 3986 §6.2.2.1–2). */
export function normalizeEscapes(s: string): string {
  if (!s.includes('%')) return s;
  return s.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/** Path parameters and segments that carry sessions: `;jsessionid=…` (Java), `/(S(…))/` (ASP.NET cookieless). */
function stripSessionPath(path: string): string {
  return path
    .replace(/;(?:jsessionid|phpsessid|sessionid|sid)=[^/?#]*/gi, '')
    .replace(/\/\((?:[A-Z]\([^()]*\))+\)(?=\/)/g, '');
}

const lowerSet = (names: readonly string[]): { exact: Set<string>; prefixes: string[] } => ({
  exact: new Set(names.filter((n) => !n.endsWith('*')).map((n) => n.toLowerCase())),
  prefixes: names.filter((n) => n.endsWith('*')).map((n) => n.slice(0, -1).toLowerCase()),
});

function sessionValue(name: string, value: string): boolean {
  if (name === 's') return /^[0-9a-f]{32}$/i.test(value);
  return /^[A-Za-z0-9_-]{16,}$/.test(value);
}

/** A compiled canonicaliser: `canonical(href, base?)` gives the canonical URL or undefined (not http(s), or unparsable). */
export interface Canonicalizer {
  canonical(href: string, base?: string): string | undefined;
  readonly config: CanonicalConfig;
}

export function canonicalizer(config: CanonicalConfig = DEFAULT_CANONICAL_CONFIG): Canonicalizer {
  const removed = lowerSet(config.remove_params);
  const session = lowerSet(config.session_params);
  const drop = (rawName: string, rawValue: string): boolean => {
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' ')).toLowerCase();
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      return false;
    }
    if (removed.exact.has(name) || removed.prefixes.some((p) => name.startsWith(p))) return true;
    return (session.exact.has(name) || session.prefixes.some((p) => name.startsWith(p))) && sessionValue(name, value);
  };
  return {
    config,
    canonical(href, base) {
      // Most links of a page are already canonical (resolved, lower-case host, plain path, no
      // query): tell them by their characters, without parsing a URL per link.
      if (base === undefined && PLAIN_CANONICAL.test(href) && !DOT_SEGMENT.test(href) && !DEFAULT_PORT.test(href)) return href;
      let u: URL;
      try {
        u = base === undefined ? new URL(href) : new URL(href, base);
      } catch {
        return undefined;
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
      // A trailing dot names the same host (`example.com.`).
      const host = u.hostname.endsWith('.') ? u.hostname.slice(0, -1) : u.hostname;
      const port = u.port === '' ? '' : `:${u.port}`;
      const path = normalizeEscapes(stripSessionPath(u.pathname)) || '/';
      const pairs: [string, string, string][] = [];
      for (const piece of u.search.slice(1).split('&')) {
        if (piece === '') continue;
        const eq = piece.indexOf('=');
        const name = eq < 0 ? piece : piece.slice(0, eq);
        const value = eq < 0 ? '' : piece.slice(eq + 1);
        if (drop(name, value)) continue;
        const n = normalizeEscapes(name);
        pairs.push([n, normalizeEscapes(value), eq < 0 ? n : `${n}=${normalizeEscapes(value)}`]);
      }
      if (!config.keep_query_order) pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
      const query = pairs.length === 0 ? '' : `?${pairs.map((p) => p[2]).join('&')}`;
      return `${u.protocol}//${host}${port}${path}${query}`;
    },
  };
}

/** The document id of a page: a hash of its canonical URL, so every variant of the page overwrites one document. */
export const pageDocId = (canonicalUrl: string): string => createHash('sha1').update(canonicalUrl).digest('hex');

/**
 * The URL a fetched page is known by: its `rel=canonical` when that is honoured, resolves, and
 * stays in scope (same host by default; `inScope` may allow more), else the page's own canonical
 * URL. A canonical that sends every page to the site's root is a known misconfiguration and is ignored.
 */
export function pageCanonical(c: Canonicalizer, pageUrl: string, relCanonical: string | undefined, inScope?: (url: string) => boolean): string | undefined {
  const own = c.canonical(pageUrl);
  if (own === undefined || relCanonical === undefined || relCanonical.trim() === '' || !c.config.honour_rel_canonical) return own;
  const named = c.canonical(relCanonical.trim(), pageUrl);
  if (named === undefined || named === own) return own;
  const a = new URL(own);
  const b = new URL(named);
  if (b.pathname === '/' && b.search === '' && a.pathname !== '/') return own;
  const allowed = inScope ? inScope(named) : a.host === b.host && a.protocol === b.protocol;
  return allowed ? named : own;
}
