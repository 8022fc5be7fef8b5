import { z } from 'zod';
import { timerMs } from '../core/timers';

/** Proxy URLs the pool accepts: plain http(s) forward proxies (http targets are forwarded, https tunnelled). */
export function checkProxyUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `unsupported scheme ${url.protocol}`;
  if (url.pathname !== '/' || url.search || url.hash) return 'a proxy URL has no path, query or fragment';
  return undefined;
}

/** `user:pass@` replaced: what a proxy URL may look like in logs, metrics and errors. */
export function redactProxyUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.username || url.password ? '[redacted]@' : ''}${url.host}`;
  } catch {
    return '[unparseable proxy URL]';
  }
}

/**
 * A pool of forward proxies that every request of a pipeline goes through, each within its own
 * request quota per window kept in Redis across workers (the API seeds describe 1000 per hour per
 * IP). Proxies with credentials come from the environment only: the CLI reads
 * `FRESHET_PROXIES_<POOL>` (comma-separated) or the file named by `FRESHET_PROXIES_<POOL>_FILE`
 * (one per line); `urls` here may list proxies without credentials.
 */
export const proxiesConfigSchema = z.strictObject({
  /** Names the pool in Redis and in the environment variable (upper-cased). */
  pool: z.string().regex(/^[a-z0-9_]{1,40}$/, 'lower-case letters, digits and _'),
  urls: z
    .array(z.string())
    .default([])
    .refine((list) => list.every((u) => checkProxyUrl(u) === undefined), { message: 'each entry must be an http(s) proxy URL without path' })
    .refine((list) => list.every((u) => !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(u)), {
      message: 'proxy credentials (user:pass@) must come from the environment, not the pipeline file',
    }),
  /** Requests each proxy may send per window. */
  requests_per_window: z.number().int().min(1).default(1000),
  window_secs: z.number().int().min(1).default(3600),
  /** A proxy refused with 403/407/418/429 sits out this long, doubled at each refusal in a row. */
  bench_secs: z.number().int().min(1).default(600),
  max_bench_secs: z.number().int().min(1).default(7200),
  /** Connection failures (or 502/504) in a row after which a proxy sits out `failure_bench_secs`. */
  max_consecutive_failures: z.number().int().min(1).default(3),
  failure_bench_secs: z.number().int().min(1).default(60),
  /** Health: a proxy this slow on average is preferred half as often as an instant one. */
  slow_ms: z.number().int().min(1).default(2000),
  /** Longer waits for a free proxy reschedule the subject instead of holding its slot. */
  max_wait_ms: timerMs(0).default(2000),
});

export type ProxiesConfig = z.infer<typeof proxiesConfigSchema>;
