import type { Clock } from '../core/clock';
import { ErrorCodes, FreshetError } from '../core/errors';
import { redactUrl } from './fetch-errors';
import { groupFor, isPathAllowed, parseRobots, robotsPath, type RobotsGroup } from './robots-parser';
import { setNewest } from './bounded-map';

/** What fetching `/robots.txt` gave: a status and body, or no answer at all. */
export type RobotsFetchResult = { status: number; text: string } | { unreachable: unknown };

export interface RobotsCacheOptions {
  clock: Clock;
  userAgentToken: string;
  ttlMs: number;
  /** How long a 5xx or unreachable robots.txt disallows the origin before it is asked again. */
  errorTtlMs: number;
  maxOrigins: number;
  /** Must not reject: failures are `{ unreachable }`. Bounded by its own timeouts, not a caller's signal, because one fetch serves every waiter. */
  fetchRobots: (origin: string) => Promise<RobotsFetchResult>;
}

interface Entry {
  /** `undefined` group: everything allowed. */
  group: RobotsGroup | undefined;
  /** The file's `Sitemap:` lines (absolute http(s) URLs), at most MAX_SITEMAPS_PER_ORIGIN. */
  sitemaps: string[];
  unavailable: boolean;
  expiresAtMs: number;
}

/** `Sitemap:` lines kept per origin: sites with more list a sitemap index, and the cache stays bounded. */
export const MAX_SITEMAPS_PER_ORIGIN = 100;

/**
 * Per-origin robots.txt decisions (RFC 9309 §2.3.1): 2xx → the file's rules; 4xx → allow all;
 * 5xx, 429 or no answer → disallow all until `errorTtlMs` passes. Concurrent misses for one
 * origin share one fetch; the cache is bounded and evicts the least recently loaded origin.
 */
export class RobotsCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();

  constructor(private readonly opts: RobotsCacheOptions) {}

  /**
   * Throws a FreshetError when robots.txt forbids `url`. Decides synchronously (returns
   * `undefined`) when the origin is cached, which is the hot path; otherwise returns a promise.
   */
  check(url: URL): Promise<void> | undefined {
    if (url.pathname === '/robots.txt') return undefined;
    const origin = url.origin;
    const cached = this.entries.get(origin);
    if (cached !== undefined && cached.expiresAtMs > this.opts.clock.nowMs()) return this.decide(cached, url);
    return this.entry(origin).then((entry) => this.decide(entry, url));
  }

  /**
   * The `Sitemap:` lines of `origin`'s robots.txt from the same cached fetch that decides robots
   * rules (one request per origin and TTL serves both); `[]` when it has none or answered 4xx.
   * Throws the throttled error while robots.txt is unavailable (5xx, 429, no answer).
   */
  async sitemaps(origin: string): Promise<string[]> {
    const cached = this.entries.get(origin);
    const entry = cached !== undefined && cached.expiresAtMs > this.opts.clock.nowMs() ? cached : await this.entry(origin);
    if (entry.unavailable) throw this.unavailable(entry, `${origin}/robots.txt`);
    return entry.sitemaps;
  }

  private unavailable(entry: Entry, url: string): FreshetError {
    const retryAfterMs = Math.max(0, entry.expiresAtMs - this.opts.clock.nowMs());
    return new FreshetError(
      ErrorCodes.fetchRobotsUnavailable,
      'throttled',
      'robots.txt unavailable; origin disallowed until it answers',
      { url: redactUrl(url) },
      undefined,
      retryAfterMs,
    );
  }

  private decide(entry: Entry, url: URL): undefined {
    if (entry.unavailable) throw this.unavailable(entry, url.href);
    if (!isPathAllowed(entry.group, robotsPath(url))) {
      throw new FreshetError(ErrorCodes.fetchRobotsDisallowed, 'non_retryable', 'disallowed by robots.txt', { url: redactUrl(url.href) });
    }
    return undefined;
  }

  /** Crawl-delay of the cached robots.txt group that applies to us, if any (for politeness). */
  crawlDelayMs(origin: string): number | undefined {
    return this.entries.get(origin)?.group?.crawlDelayMs;
  }

  clear(): void {
    this.entries.clear();
  }

  private entry(origin: string): Promise<Entry> {
    let pending = this.inflight.get(origin);
    if (!pending) {
      pending = this.load(origin).finally(() => this.inflight.delete(origin));
      this.inflight.set(origin, pending);
    }
    return pending;
  }

  private async load(origin: string): Promise<Entry> {
    const result = await this.opts.fetchRobots(origin);
    const nowMs = this.opts.clock.nowMs();
    let entry: Entry;
    if ('unreachable' in result || result.status >= 500 || result.status === 429) {
      entry = { group: undefined, sitemaps: [], unavailable: true, expiresAtMs: nowMs + this.opts.errorTtlMs };
    } else if (result.status >= 200 && result.status < 300) {
      const parsed = parseRobots(result.text);
      const group = groupFor(parsed, this.opts.userAgentToken);
      entry = { group, sitemaps: absoluteSitemaps(parsed.sitemaps, origin), unavailable: false, expiresAtMs: nowMs + this.opts.ttlMs };
    } else {
      entry = { group: undefined, sitemaps: [], unavailable: false, expiresAtMs: nowMs + this.opts.ttlMs };
    }
    setNewest(this.entries, origin, entry, this.opts.maxOrigins);
    return entry;
  }
}

/** `Sitemap:` values resolved against the origin; only http(s), at most MAX_SITEMAPS_PER_ORIGIN. */
export function absoluteSitemaps(lines: readonly string[], origin: string): string[] {
  const out: string[] = [];
  for (const s of lines) {
    if (out.length >= MAX_SITEMAPS_PER_ORIGIN) break;
    try {
      const u = new URL(s, origin);
      if (u.protocol === 'http:' || u.protocol === 'https:') out.push(u.href);
    } catch {
      // An unparsable line names no sitemap.
    }
  }
  return out;
}
