import type { Clock } from '../core/clock';
import type { Rng } from '../core/rng';
import type { Expect } from './decode-body';
import type { LookupAllFn } from './host-resolver';

export interface FetchRequest {
  url: string;
  method?: 'GET' | 'HEAD';
  headers?: Record<string, string>;
  /** How to decode the body; inferred from Content-Type when absent. */
  expect?: Expect;
  subject?: string;
}

export interface FetchResponse {
  requestUrl: string;
  /** Final URL, after redirects. */
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  text: string;
  charset: string;
  redirects: string[];
  /** True when the answer came through redirects that were all permanent (301, 308): the page moved. */
  permanentRedirect?: boolean;
  attempts: number;
  fetchedAtMs: number;
  elapsedMs: number;
}

/** Label values are bounded: status classes and stable error codes, never URLs or hosts. */
export interface FetchMetrics {
  /** One per HTTP exchange (each redirect hop counts); `outcome` is `ok`, `redirect` or an error code. */
  requests(statusClass: string, outcome: string): void;
  /** One per retry the policy granted, by the error code that caused it. */
  retries?(code: string): void;
  /** Bytes received on the wire. */
  bytes(n: number): void;
  latencyMs(ms: number): void;
}

export interface PolitenessGate {
  /** Resolves when a request to `origin` may start; call the returned function when it is done. */
  acquire(origin: string, signal?: AbortSignal): Promise<() => void>;
}

export interface FetcherDeps {
  clock: Clock;
  rng: Rng;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  metrics?: FetchMetrics;
  logger?: { warn(obj: object, msg: string): void; debug?(obj: object, msg: string): void };
  politeness?: PolitenessGate;
  /**
   * Credentials (cookies, tokens) for an origin, from the environment via the CLI; asked per hop
   * so a redirect to another origin never carries them. Never logged.
   */
  headerProvider?: (url: URL) => Record<string, string> | undefined;
  /** DNS for tests; defaults to `dns.promises.lookup(host, { all: true })`. */
  lookupAll?: LookupAllFn;
}
