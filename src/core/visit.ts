import type { SubjectState } from './envelope';
import type { ErrorCode } from './errors';

/** What a parser may ask of the fetcher: a URL in, decoded text out (errors are FreshetErrors). */
export interface FetchedText {
  url: string;
  status: number;
  text: string;
  fetchedAtMs: number;
  /** Response headers (lower-case names), for validators; absent where a test fakes the fetch. */
  headers?: Record<string, string>;
  /** Bytes of the body as received. */
  bodyBytes?: number;
  /** The body's bytes, for formats the text decoding would spoil (gzipped sitemaps). */
  body?: Uint8Array;
  /** The answer came through permanent redirects only (301/308): the page moved to `url`. */
  permanentRedirect?: boolean;
}

/** What a visit learned, for the frontier state and the scheduler. */
export interface VisitOutcome {
  state: SubjectState;
  /** Publication times of the posts that were new on this visit. */
  newPostTimesMs: number[];
  /** True when the visit stopped at its page limit with more posts possibly left behind. */
  pageLimitHit: boolean;
  /** Requests this visit made (charged to the budget). */
  requests: number;
  /**
   * The visit stopped early because a limit refused a request (quota, benched identity,
   * throttling) and kept what it had read: the rest is due again as soon as the limit allows
   * (`retryAfterMs` from the refusal), not at the schedule's next visit.
   */
  paused?: { code: ErrorCode; retryAfterMs: number | undefined };
  /**
   * The visit stopped before its end for a reason that passes (one unreadable page): what it read
   * is kept, the state says where to resume, and the subject is due again after `afterMs` (sooner
   * than the schedule's next visit, never later). `reason` is the error code, for the log and count.
   */
  resume?: { afterMs: number; reason: string };
}
