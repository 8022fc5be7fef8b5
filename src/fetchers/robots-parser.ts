/**
 * robots.txt parsing and matching after RFC 9309. Pure: text in, decisions out.
 *
 * Matching uses a two-pointer wildcard matcher instead of regular expressions: a hostile file
 * full of `*` must not be able to make matching super-linear.
 */

export interface RobotsRule {
  allow: boolean;
  /** Normalised pattern, without a trailing `$`. */
  pattern: string;
  anchored: boolean;
  /** Length of the pattern as written; the longest match wins. */
  specificity: number;
  hasWildcard: boolean;
}

export interface RobotsGroup {
  rules: RobotsRule[];
  crawlDelayMs: number | undefined;
}

export interface ParsedRobots {
  /** Lower-cased user-agent token → its rules (groups naming the same agent are merged). */
  groups: Map<string, RobotsGroup>;
  sitemaps: string[];
}

/** Lines longer than this are ignored; no real rule is that long. */
const MAX_LINE_CHARS = 4096;
const MAX_RULES_PER_GROUP = 10_000;

const KEY_ALIASES: Record<string, string> = {
  'user-agent': 'user-agent', useragent: 'user-agent', 'user agent': 'user-agent',
  allow: 'allow',
  disallow: 'disallow', dissallow: 'disallow', dissalow: 'disallow', disalow: 'disallow',
  'crawl-delay': 'crawl-delay',
  sitemap: 'sitemap',
};

export function parseRobots(text: string): ParsedRobots {
  const groups = new Map<string, RobotsGroup>();
  const sitemaps: string[] = [];
  let current: RobotsGroup[] = [];
  let collectingAgents = false;
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (const raw of text.slice(start).split(/\r\n|\r|\n/)) {
    if (raw.length > MAX_LINE_CHARS) continue;
    const hash = raw.indexOf('#');
    const line = hash >= 0 ? raw.slice(0, hash) : raw;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = KEY_ALIASES[line.slice(0, colon).trim().toLowerCase()];
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent') {
      if (!collectingAgents) current = [];
      collectingAgents = true;
      const token = value.split('/')[0]!.trim().toLowerCase();
      if (!token) continue;
      let group = groups.get(token);
      if (!group) {
        group = { rules: [], crawlDelayMs: undefined };
        groups.set(token, group);
      }
      current.push(group);
    } else if (key === 'allow' || key === 'disallow') {
      collectingAgents = false;
      if (!value) continue; // an empty Disallow allows everything, which is the default anyway
      const rule = compileRule(key === 'allow', value);
      for (const g of current) if (g.rules.length < MAX_RULES_PER_GROUP) g.rules.push(rule);
    } else if (key === 'crawl-delay') {
      collectingAgents = false;
      const secs = Number(value);
      if (Number.isFinite(secs) && secs >= 0) for (const g of current) g.crawlDelayMs = Math.round(secs * 1000);
    } else if (key === 'sitemap') {
      if (value) sitemaps.push(value);
    }
  }
  return { groups, sitemaps };
}

/** The group for our product token, else `*`, else none (everything allowed). */
export function groupFor(parsed: ParsedRobots, userAgentToken: string): RobotsGroup | undefined {
  return parsed.groups.get(userAgentToken.toLowerCase()) ?? parsed.groups.get('*');
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

function compileRule(allow: boolean, value: string): RobotsRule {
  const anchored = value.endsWith('$');
  const body = anchored ? value.slice(0, -1) : value;
  const pattern = normalizePercent(encodeNonAscii(body.startsWith('/') || body.startsWith('*') ? body : `/${body}`));
  return { allow, pattern, anchored, specificity: value.length, hasWildcard: pattern.includes('*') };
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

/** Percent-encodes characters outside ASCII (robots.txt files often contain raw UTF-8 paths). */
function encodeNonAscii(s: string): string {
  // eslint-disable-next-line no-control-regex
  return /[^\x00-\x7f]/.test(s) ? s.replace(/[^\x00-\x7f]+/g, (m) => encodeURIComponent(m)) : s;
}

/** Upper-cases percent escapes so `%e4` and `%E4` compare equal. */
function normalizePercent(s: string): string {
  return s.includes('%') ? s.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase()) : s;
}
