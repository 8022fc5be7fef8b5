import type { FaultConfig } from './faults';

/** Named fault settings for the CLI and tests; combine several with mergeFaults. */
export const FAULT_PRESETS: Record<string, FaultConfig> = {
  /** Microblog style: over 2 req/s (burst 5) → HTTP 418, empty body, no Retry-After. */
  'ratelimit-418': { rateLimit: { requestsPerSec: 2, burst: 5, status: 418, retryAfterSec: null } },
  /** Discourse style: 429 with a Retry-After that says when the bucket refills. */
  'ratelimit-429': { rateLimit: { requestsPerSec: 2, burst: 5, status: 429, retryAfterSec: 'auto' } },
  /** 429 without Retry-After (the client must pick its own backoff). */
  'ratelimit-429-bare': { rateLimit: { requestsPerSec: 2, burst: 5, status: 429, retryAfterSec: null } },
  '5xx': { serverErrors: { rate: 0.02, burstLength: 3 } },
  timeouts: { timeouts: { rate: 0.01, holdMs: 30_000 } },
  slow: { slowBody: { rate: 0.05, bytesPerSec: 4096 } },
  truncated: { truncated: { rate: 0.02 } },
  malformed: { malformed: { rate: 0.02 } },
  login: { loginRedirect: { rate: 0.01 } },
  /** HTTP 432 for common crawler user agents. */
  'ua-block': { blockedUserAgents: ['python-requests', 'Scrapy', 'curl/', 'Go-http-client'] },
  'redirect-loop': { redirectLoop: { rate: 0.01 } },
  /** ok:-100 / captcha / 操作过于频繁 bodies with HTTP 200. */
  soft: { softErrors: { rate: 0.02 } },
  /** Every soft block a monitoring crawler must tell from data (no login wall): captcha body, 操作过于频繁, ok:-100 to a captcha, an HTML captcha page, HTTP 432. */
  'soft-all': { softErrors: { rate: 0.02, kinds: ['captcha', 'frequent', 'captcha_limit', 'captcha_html', 'http432'] } },
  /** An unannounced per-client capacity: 5 req/s (burst 10), refused with 418, an empty body and no Retry-After. */
  capacity: { rateLimit: { requestsPerSec: 5, burst: 10, status: 418, retryAfterSec: null } },
  /** One bucket per remote address: every client id behind it is limited at once (the IP ban). */
  'ratelimit-418-ip': { rateLimit: { requestsPerSec: 2, burst: 5, status: 418, retryAfterSec: null, keyBy: 'ip' } },
  /** Q&A risk control: 403 with error code 40362 on /api/v4 after the budget. */
  'ratelimit-403': { rateLimit: { requestsPerSec: 2, burst: 5, status: 403, retryAfterSec: null } },
};

export function mergeFaults(...configs: FaultConfig[]): FaultConfig {
  return Object.assign({}, ...configs) as FaultConfig;
}

/** `ratelimit-418,5xx` → the merged presets; a JSON object is taken as is. */
export function parseFaultSpec(spec: string): FaultConfig {
  const t = spec.trim();
  if (t === '' || t === 'none') return {};
  if (t.startsWith('{')) return JSON.parse(t) as FaultConfig;
  return mergeFaults(...t.split(',').map((name) => {
    const preset = FAULT_PRESETS[name.trim()];
    if (!preset) throw new Error(`unknown fault preset "${name}" (known: ${Object.keys(FAULT_PRESETS).join(', ')})`);
    return preset;
  }));
}
