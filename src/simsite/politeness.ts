import type { RequestLogEntry } from './request-log';

/** How politely one client behaved, computed from its request log (real time). */
export interface PolitenessReport {
  client: string;
  requests: number;
  /** Gaps between consecutive requests, ms. */
  minGapMs: number | null;
  meanGapMs: number | null;
  /** Responses that announced a Retry-After. */
  retryAfterAnnounced: number;
  /** Requests sent before an announced Retry-After had elapsed. */
  retryAfterViolations: number;
  /** 418/429/403 rate-limit answers received. */
  rateLimited: number;
  /** Gap after each rate-limit answer until the next request, ms (backoff actually applied). */
  backoffAfterLimitMs: number[];
  /** URLs fetched more than once with status 200 (duplicate cost). */
  duplicateOkFetches: number;
}

export function politeness(client: string, entries: readonly RequestLogEntry[]): PolitenessReport {
  const list = entries.filter((e) => e.client === client).sort((a, b) => a.realMs - b.realMs || a.seq - b.seq);
  let minGap: number | null = null;
  let gapSum = 0;
  for (let i = 1; i < list.length; i++) {
    const gap = list[i]!.realMs - list[i - 1]!.realMs;
    minGap = minGap === null ? gap : Math.min(minGap, gap);
    gapSum += gap;
  }
  let announced = 0;
  let violations = 0;
  let limited = 0;
  const backoff: number[] = [];
  let notBeforeMs = -Infinity;
  const okUrls = new Map<string, number>();
  for (let i = 0; i < list.length; i++) {
    const e = list[i]!;
    if (e.realMs < notBeforeMs) violations++;
    if (e.retryAfterSec !== null) {
      announced++;
      notBeforeMs = Math.max(notBeforeMs, e.realMs + e.retryAfterSec * 1000);
    }
    if (e.fault === 'rateLimit') {
      limited++;
      const next = list[i + 1];
      if (next) backoff.push(next.realMs - e.realMs);
    }
    if (e.status === 200) okUrls.set(e.url, (okUrls.get(e.url) ?? 0) + 1);
  }
  let dup = 0;
  for (const n of okUrls.values()) dup += n - 1;
  return {
    client,
    requests: list.length,
    minGapMs: minGap,
    meanGapMs: list.length > 1 ? gapSum / (list.length - 1) : null,
    retryAfterAnnounced: announced,
    retryAfterViolations: violations,
    rateLimited: limited,
    backoffAfterLimitMs: backoff,
    duplicateOkFetches: dup,
  };
}
