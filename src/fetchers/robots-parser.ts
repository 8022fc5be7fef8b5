/**
 * robots.txt parsing and matching after RFC 9309, reading what Google's reference parser
 * (github.com/google/robotstxt) reads: missing colons, its accepted typos, a partial byte-order
 * mark, `/index.html` meaning its directory. Pure: text in, decisions out; never throws.
 *
 * Matching uses a two-pointer wildcard matcher instead of regular expressions: a hostile file
 * full of `*` must not be able to make matching super-linear.
 */

export interface RobotsRule {
  allow: boolean;
  /** Normalised pattern, without a trailing `$`. */
  pattern: string;
  anchored: boolean;
  /** Length of the percent-encoded pattern with its `$` (Google's priority); the longest match wins. */
  specificity: number;
  hasWildcard: boolean;
}

export interface RobotsGroup {
  rules: RobotsRule[];
  crawlDelayMs: number | undefined;
}

export interface ParsedRobots {
  /** Lower-cased product token → its rules (groups naming the same agent are merged). */
  groups: Map<string, RobotsGroup>;
  sitemaps: string[];
}

/**
 * Google reads a line into a buffer of 8 × 2083 bytes (the longest URL old browsers took) and
 * ignores what does not fit, keeping the start of the line. Counted here in UTF-16 code units,
 * which equals bytes for the ASCII that real rules are made of.
 */
export const MAX_LINE_CHARS = 2083 * 8 - 1;
const MAX_RULES_PER_GROUP = 10_000;
/** A Crawl-delay above a day is a typo or hostile; a day is already "almost never". */
const MAX_CRAWL_DELAY_MS = 86_400_000;

type Key = 'user-agent' | 'allow' | 'disallow' | 'sitemap' | 'crawl-delay';

/**
 * Google matches keys by prefix, case-insensitively, and accepts these misspellings
 * (robots.cc `KeyIsUserAgent`, `KeyIsDisallow`, `KeyIsSitemap`). Crawl-delay is not Google's but
 * is widely honoured, so it is read the same way.
 */
const KEY_PREFIXES: Array<[string, Key]> = [
  ['user-agent', 'user-agent'], ['useragent', 'user-agent'], ['user agent', 'user-agent'],
  ['allow', 'allow'],
  ['disallow', 'disallow'], ['dissallow', 'disallow'], ['dissalow', 'disallow'], ['disalow', 'disallow'],
  ['diasllow', 'disallow'], ['disallaw', 'disallow'],
  ['sitemap', 'sitemap'], ['site-map', 'sitemap'],
  ['crawl-delay', 'crawl-delay'],
];

function keyOf(raw: string): Key | undefined {
  const lower = raw.toLowerCase();
  for (const [prefix, key] of KEY_PREFIXES) if (lower.startsWith(prefix)) return key;
  return undefined;
}

/**
 * UTF-8 bytes → text, skipping any prefix of a byte-order mark as Google does (a file cut after
 * one or two BOM bytes must not lose its first group).
 */
export function decodeRobotsBody(bytes: Uint8Array): string {
  let start = 0;
  const bom = [0xef, 0xbb, 0xbf];
  while (start < bom.length && start < bytes.length && bytes[start] === bom[start]) start++;
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(start));
}

/** `<key>[ \t]*:[ \t]*<value>`, or Google's `<key> <value>` when the colon is missing. */
function splitLine(raw: string): [string, string] | undefined {
  const hash = raw.indexOf('#');
  const line = stripWs(hash >= 0 ? raw.slice(0, hash) : raw);
  if (!line) return undefined;
  const colon = line.indexOf(':');
  if (colon < 0) {
    // Only exactly two runs of non-whitespace: "disallow /" yes, "absolutely random line" no.
    const m = /^([^ \t]+)[ \t]+([^ \t]+)$/.exec(line);
    return m ? [m[1]!, m[2]!] : undefined;
  }
  const key = stripWs(line.slice(0, colon));
  return key ? [key, stripWs(line.slice(colon + 1))] : undefined;
}

/** ASCII whitespace only, as Google strips it: a stray U+FEFF mid-file stays part of its line. */
function stripWs(s: string): string {
  return s.replace(/^[ \t\v\f]+|[ \t\v\f]+$/g, '');
}

/**
 * The product token of a User-agent value (RFC 9309 §2.2.1: letters, `-`, `_`), read as Google
 * does: up to the first other character, so `freshet bot` and `freshet/2.1` are `freshet`.
 */
export function productToken(value: string): string {
  const m = /^[A-Za-z_-]*/.exec(stripWs(value));
  return m![0].toLowerCase();
}

export function parseRobots(text: string): ParsedRobots {
  const groups = new Map<string, RobotsGroup>();
  const sitemaps: string[] = [];
  // Agents the next rules apply to. As in Google's parser, only Allow/Disallow end the list of
  // agents, so a Crawl-delay or unknown line between two User-agent lines does not split them.
  let ruleTargets: RobotsGroup[] = [];
  let collectingAgents = false;
  // Agents the next Crawl-delay applies to: those named since the last rule or Crawl-delay.
  let delayTargets: RobotsGroup[] = [];
  let collectingDelayAgents = false;
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let raw of text.slice(start).split(/\r\n|\r|\n/)) {
    if (raw.length > MAX_LINE_CHARS) raw = cutAt(raw, MAX_LINE_CHARS);
    const kv = splitLine(raw);
    if (!kv) continue;
    const key = keyOf(kv[0]);
    const value = kv[1];
    if (key === 'user-agent') {
      if (!collectingAgents) ruleTargets = [];
      if (!collectingDelayAgents) delayTargets = [];
      collectingAgents = collectingDelayAgents = true;
      // Google: `*` followed by a space and anything is still the global group.
      const token = value.startsWith('*') && (value.length === 1 || /[ \t\v\f]/.test(value[1]!)) ? '*' : productToken(value);
      if (!token) continue;
      let group = groups.get(token);
      if (!group) {
        group = { rules: [], crawlDelayMs: undefined };
        groups.set(token, group);
      }
      ruleTargets.push(group);
      delayTargets.push(group);
    } else if (key === 'allow' || key === 'disallow') {
      collectingAgents = collectingDelayAgents = false;
      if (!value) continue; // an empty Disallow allows everything, which is the default anyway
      for (const rule of compileRules(key === 'allow', value)) {
        for (const g of ruleTargets) if (g.rules.length < MAX_RULES_PER_GROUP) g.rules.push(rule);
      }
    } else if (key === 'crawl-delay') {
      collectingDelayAgents = false;
      if (!/^\d+(\.\d+)?$/.test(value)) continue;
      const ms = Math.min(MAX_CRAWL_DELAY_MS, Math.round(Number(value) * 1000));
      for (const g of delayTargets) g.crawlDelayMs = ms;
    } else if (key === 'sitemap') {
      if (value) sitemaps.push(value);
    }
  }
  return { groups, sitemaps };
}

/** Cuts `s` to `n` code units without leaving half a surrogate pair behind. */
function cutAt(s: string, n: number): string {
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

/**
 * The group for our product token, else `*`, else none (everything allowed). `userAgent` may
 * carry a version (`freshet/2.1`); only its product token counts.
 */
export function groupFor(parsed: ParsedRobots, userAgent: string): RobotsGroup | undefined {
  const token = productToken(userAgent);
  return (token ? parsed.groups.get(token) : undefined) ?? parsed.groups.get('*');
}

/** What robots.txt rules are matched against: path and query, without the fragment. */
export function robotsPath(url: URL): string {
  return url.search ? url.pathname + url.search : url.pathname;
}

/** `pathAndQuery` as WHATWG URL produces it (`pathname + search`, already percent-encoded). */
export function isPathAllowed(group: RobotsGroup | undefined, pathAndQuery: string): boolean {
  if (!group || group.rules.length === 0) return true;
  if (pathAndQuery === '/robots.txt') return true;
  const path = normalizePercent(pathAndQuery);
  let best: RobotsRule | undefined;
  for (const rule of group.rules) {
    if (best && (rule.specificity < best.specificity || (rule.specificity === best.specificity && best.allow))) continue;
    if (ruleMatches(rule, path)) best = rule;
  }
  return best ? best.allow : true;
}

function compileRules(allow: boolean, value: string): RobotsRule[] {
  const escaped = escapePattern(value);
  if (escaped === undefined) return [];
  const rules = [compileRule(allow, escaped)];
  // Google: an Allow of `…/index.htm[l]` also allows its directory, `…/` exactly.
  const slash = escaped.lastIndexOf('/');
  if (allow && slash >= 0 && escaped.startsWith('/index.htm', slash)) rules.push(compileRule(true, `${escaped.slice(0, slash + 1)}$`));
  return rules;
}

function compileRule(allow: boolean, escaped: string): RobotsRule {
  const anchored = escaped.endsWith('$');
  const body = anchored ? escaped.slice(0, -1) : escaped;
  const pattern = body.startsWith('/') || body.startsWith('*') ? body : `/${body}`;
  return { allow, pattern, anchored, specificity: escaped.length, hasWildcard: pattern.includes('*') };
}

function ruleMatches(rule: RobotsRule, path: string): boolean {
  if (!rule.hasWildcard) return rule.anchored ? path === rule.pattern : path.startsWith(rule.pattern);
  return wildcardMatch(rule.pattern, path, rule.anchored);
}

/** `*` matches any run of characters; unanchored patterns need only match a prefix of `text`. */
export function wildcardMatch(pattern: string, text: string, anchored: boolean): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern.charCodeAt(p) === 42 /* * */) {
      starP = p++;
      starT = t;
    } else if (p < pattern.length && pattern.charCodeAt(p) === text.charCodeAt(t)) {
      p++;
      t++;
    } else if (p === pattern.length && !anchored) {
      return true;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern.charCodeAt(p) === 42) p++;
  return p === pattern.length;
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]+/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Google's `MaybeEscapePattern`: characters outside ASCII become their UTF-8 bytes
 * percent-encoded, and escapes are upper-cased (`%aa` → `%AA`). A pattern holding a lone
 * surrogate names no URL (WHATWG URL turns one into U+FFFD), so it is `undefined`: no rule.
 */
export function escapePattern(value: string): string | undefined {
  if (LONE_SURROGATE.test(value)) return undefined;
  const encoded = value.replace(NON_ASCII, (m) => {
    let out = '';
    for (const b of new TextEncoder().encode(m)) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    return out;
  });
  return normalizePercent(encoded);
}

/** Upper-cases percent escapes so `%e4` and `%E4` compare equal. */
function normalizePercent(s: string): string {
  return s.includes('%') ? s.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase()) : s;
}
