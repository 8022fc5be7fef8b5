/**
 * Error taxonomy. Every error freshet raises carries a stable code and the kind of retry decision
 * it implies; `decideRetry` (retry.ts) is the one function that turns that into what to do.
 *
 * - retryable: try again after backoff (timeouts, 5xx, connection resets)
 * - throttled: try again no earlier than `retryAfterMs` (429/418, quota exhausted)
 * - non_retryable: this item will never succeed as is; dead-letter or drop it with its code
 * - critical: the pipeline cannot go on (bad config, lost credentials); stop and report
 */
export type ErrorKind = 'retryable' | 'throttled' | 'non_retryable' | 'critical';

export class FreshetError extends Error {
  readonly code: ErrorCode;
  readonly kind: ErrorKind;
  readonly fields: Readonly<Record<string, unknown>>;
  /** For throttled errors: the earliest time to try again, relative to when it was raised. */
  readonly retryAfterMs: number | undefined;

  constructor(
    code: ErrorCode,
    kind: ErrorKind,
    message: string,
    fields: Record<string, unknown> = {},
    cause?: unknown,
    retryAfterMs?: number,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'FreshetError';
    this.code = code;
    this.kind = kind;
    this.fields = fields;
    this.retryAfterMs = retryAfterMs;
  }
}

/** Stable codes; logs, metrics labels and the dead-letter stream carry these. */
export const ErrorCodes = {
  /** Anything thrown that is not a FreshetError, once it reaches a decision point (retryable). */
  unexpected: 'E_UNEXPECTED',
  configInvalid: 'E_CONFIG_INVALID',
  pipelineInvalid: 'E_PIPELINE_INVALID',
  unknownStage: 'E_UNKNOWN_STAGE',
  searchUnreachable: 'E_SEARCH_UNREACHABLE',
  searchUnsupported: 'E_SEARCH_UNSUPPORTED',
  searchRequestFailed: 'E_SEARCH_REQUEST',
  searchItemRejected: 'E_SEARCH_ITEM_REJECTED',
  searchItemThrottled: 'E_SEARCH_ITEM_THROTTLED',
  templateInvalid: 'E_TEMPLATE_INVALID',
  redisUnavailable: 'E_REDIS_UNAVAILABLE',
  fetchTimeout: 'E_FETCH_TIMEOUT',
  fetchConnection: 'E_FETCH_CONNECTION',
  fetchHttpStatus: 'E_FETCH_HTTP_STATUS',
  fetchThrottled: 'E_FETCH_THROTTLED',
  fetchBodyTooLarge: 'E_FETCH_BODY_TOO_LARGE',
  fetchTooManyRedirects: 'E_FETCH_TOO_MANY_REDIRECTS',
  fetchRedirectLoop: 'E_FETCH_REDIRECT_LOOP',
  fetchBlockedAddress: 'E_FETCH_BLOCKED_ADDRESS',
  fetchInvalidUrl: 'E_FETCH_INVALID_URL',
  fetchRobotsDisallowed: 'E_FETCH_ROBOTS_DISALLOWED',
  fetchDecode: 'E_FETCH_DECODE',
  parseJson: 'E_PARSE_JSON',
  parseShape: 'E_PARSE_SHAPE',
  parseHtml: 'E_PARSE_HTML',
  loginRequired: 'E_LOGIN_REQUIRED',
  captcha: 'E_CAPTCHA',
  fetchAborted: 'E_FETCH_ABORTED',
  fetchDns: 'E_FETCH_DNS',
  fetchHeadersTooLarge: 'E_FETCH_HEADERS_TOO_LARGE',
  fetchRobotsUnavailable: 'E_FETCH_ROBOTS_UNAVAILABLE',
  quotaExhausted: 'E_QUOTA_EXHAUSTED',
  identityBenched: 'E_IDENTITY_BENCHED',
  rateLimitedBody: 'E_RATE_LIMITED_BODY',
  /** A profile answered "no such user" and the check of its newest post did not agree (yet). */
  profileGoneUnconfirmed: 'E_PROFILE_GONE_UNCONFIRMED',
  /** The browser process or the page's renderer died. */
  renderCrashed: 'E_RENDER_CRASHED',
  /** The page used up its time budget (hung script, wait condition never met). */
  renderTimeout: 'E_RENDER_TIMEOUT',
  /** The browser could not be started. */
  renderLaunch: 'E_RENDER_LAUNCH',
  /** Anything else the browser reported while rendering. */
  renderFailed: 'E_RENDER_FAILED',
  /** A page worker thread exited with pages in hand (retryable), or kept exiting before reading any (critical). */
  pageWorker: 'E_PAGE_WORKER',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** Anything thrown that is not ours is treated as retryable once it reaches a decision point. */
export function asFreshetError(err: unknown, code: ErrorCode = ErrorCodes.unexpected): FreshetError {
  if (err instanceof FreshetError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new FreshetError(code, 'retryable', message, {}, err);
}
