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
  /** Room in the run's memory budget for the body; none: the body is read without asking. */
  allowance?: BodyAllowance;
  /** The identity (pool index) the request goes out as; set by the identity pool. */
  identity?: string;
  /**
   * The parser's reading of an answer that is a soft block (HTTP 200 with a captcha or "too
   * frequent" body): the fetch layer counts it, cools the identity down and throws it (throttled).
   */
  softBlockOf?: (res: { url: string; status: number; text: string }) => SoftBlock | undefined;
}

/**
 * The memory a response body may take (the runner's byte budget): `cover(n)` asks that `n` bytes
 * of body be covered, and returns a promise to wait for when there is no room yet (reading pauses
 * meanwhile, so the socket pushes back on the server instead of the body filling memory).
 */
export interface BodyAllowance {
  cover(bodyBytes: number): Promise<void> | undefined;
  /**
   * An attempt failed: what it read is dropped, so its bytes go back until the retry asks again.
   * A visit that held them through its backoff and its wait for a connection (all of the
   * origin's held by bodies paused for room) would hold the budget against everyone: issue 24's
   * 200-page crawl stalled so, on a loaded machine, twice.
   */
  giveBack?(): void;
}

/** A soft block recognised by its content: the reason (a metric label) and the throttled error to throw. */
export interface SoftBlock {
  reason: string;
  error: Error;
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

/**
 * The fetcher contract: what the runner and the wrapping fetchers (identity and proxy pools,
 * rendering) ask of a fetcher. Implemented by HttpFetcher and every wrapper around it.
 */
export interface Fetcher {
  fetch(req: FetchRequest, signal?: AbortSignal): Promise<FetchResponse>;
  /** The Crawl-delay robots.txt asks of `origin`, when the fetcher reads robots.txt. */
  robotsCrawlDelayMs?(origin: string): number | undefined;
  /** The `Sitemap:` lines of `origin`'s robots.txt from the fetcher's robots cache; `undefined`: it reads no robots.txt. */
  robotsSitemaps?(origin: string): Promise<string[]> | undefined;
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
  /** One per answer that was a soft block, by reason. */
  softBlocks?(reason: string): void;
}

/** Ends a request's hold on its origin's politeness slot. */
export type OriginRelease = () => void | Promise<void>;

/** Per-origin politeness across workers (OriginGate in src/limits). */
export interface PolitenessGate {
  /**
   * Waits until a request to `origin` may start and resolves to the release to call once it is
   * done (none when nothing is held). Undefined: the origin has nothing to wait for. Throws a
   * throttled FreshetError when the slot is too far off.
   */
  acquire(origin: string, signal?: AbortSignal): Promise<OriginRelease | undefined> | undefined;
}

export interface FetcherDeps {
  clock: Clock;
  rng: Rng;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  metrics?: FetchMetrics;
  logger?: { warn(obj: object, msg: string): void; debug?(obj: object, msg: string): void };
  /**
   * Gates each redirect hop to an origin other than the request's own (the caller gates that one:
   * the runner's PoliteFetch), so a redirect never reaches an origin around its politeness.
   */
  politeness?: PolitenessGate;
  /** DNS for tests; defaults to `dns.promises.lookup(host, { all: true })`. */
  lookupAll?: LookupAllFn;
}
