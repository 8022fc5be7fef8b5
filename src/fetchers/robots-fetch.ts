import type { Agent } from 'undici';
import type { AttemptWindows } from './attempt-signal';
import { readBody } from './body-reader';
import { errorFromThrown } from './fetch-errors';
import type { PolitenessGate } from './contract';
import { REDIRECT_STATUSES, headerValue, resolveLocation } from './fetch-url';
import type { HostResolver } from './host-resolver';
import type { RobotsFetchResult } from './robots-cache';
import { decodeRobotsBody } from './robots-parser';

const ROBOTS_MAX_REDIRECTS = 5; // RFC 9309 §2.3.1.2

export interface RobotsFetchContext {
  agent: Agent;
  resolver: HostResolver;
  politeness: PolitenessGate | undefined;
  logger: { warn(obj: object, msg: string): void } | undefined;
  headers: Record<string, string>;
  /** Bytes parsed at most; the rest of an oversized file is ignored, as RFC 9309 allows. */
  maxBytes: number;
  totalTimeoutMs: number;
  /** The fetcher's attempt windows (robots.txt reads share its deadlines). */
  attempts: AttemptWindows;
}

/** robots.txt through the fetcher's agent and guards; never rejects (see RobotsCache). */
export async function fetchRobotsTxt(origin: string, ctx: RobotsFetchContext): Promise<RobotsFetchResult> {
  const a = ctx.attempts.start(undefined, ctx.totalTimeoutMs);
  try {
    let url = new URL('/robots.txt', origin);
    for (let hop = 0; hop <= ROBOTS_MAX_REDIRECTS; hop++) {
      await ctx.resolver.resolve(url.hostname, url.href);
      const release = ctx.politeness ? await ctx.politeness.acquire(url.origin, a.signal) : undefined;
      try {
        const res = await ctx.agent.request({ origin: url.origin, path: url.pathname, method: 'GET', headers: ctx.headers, signal: a.signal });
        const location = REDIRECT_STATUSES.has(res.statusCode) ? headerValue(res.headers.location) : undefined;
        if (location !== undefined) {
          await res.body.dump();
          url = resolveLocation(location, url);
          continue;
        }
        if (res.statusCode < 200 || res.statusCode >= 300) {
          await res.body.dump();
          return { status: res.statusCode, text: '' };
        }
        const { bytes } = await readBody(res.body, headerValue(res.headers['content-encoding']), ctx.maxBytes, url.href, true);
        return { status: res.statusCode, text: decodeRobotsBody(bytes) };
      } finally {
        release?.();
      }
    }
    // RFC 9309: past five redirects the file may be treated as unavailable, i.e. like a 404.
    return { status: 404, text: '' };
  } catch (err) {
    ctx.logger?.warn({ origin, code: errorFromThrown(err, origin).code }, 'robots.txt unreachable; origin disallowed for now');
    return { unreachable: err };
  } finally {
    a.done();
  }
}
