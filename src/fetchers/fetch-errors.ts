import { ErrorCodes, FreshetError } from '../core/errors';
import { redactUrl } from '../core/redact';
import { parseRetryAfterMs } from '../core/retry';

/** Label values for metrics, precomputed so the hot path does not build strings. */
const STATUS_CLASSES = ['none', '1xx', '2xx', '3xx', '4xx', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export function statusClass(status: number): StatusClass {
  const i = Math.floor(status / 100);
  return i >= 1 && i <= 5 ? STATUS_CLASSES[i]! : 'none';
}

/**
 * Error for a final (non-redirect, non-success) status. 429 and 418 (what some platforms answer
 * to crawlers instead of 429) are throttling whether or not a Retry-After says for how long; a
 * 503 is throttling only when it says so, otherwise an ordinary server failure.
 */
export function errorFromStatus(status: number, retryAfter: string | undefined, url: string, nowMs: number): FreshetError {
  const retryAfterMs = parseRetryAfterMs(retryAfter, nowMs);
  // Whether the site said how long to wait (self-tuning politeness learns only from refusals that do not).
  const fields = { url: redactUrl(url), status, ...(retryAfterMs !== undefined ? { retry_after_ms: retryAfterMs } : {}) };
  if (status === 429 || status === 418 || (status === 503 && retryAfterMs !== undefined)) {
    return new FreshetError(ErrorCodes.fetchThrottled, 'throttled', `throttled with HTTP ${status}`, fields, undefined, retryAfterMs);
  }
  if (status >= 500 || status === 408) {
    const kind = status === 501 || status === 505 ? 'non_retryable' : 'retryable';
    return new FreshetError(ErrorCodes.fetchHttpStatus, kind, `HTTP ${status}`, fields);
  }
  return new FreshetError(ErrorCodes.fetchHttpStatus, 'non_retryable', `HTTP ${status}`, fields);
}

/** DNS answers that mean the name does not exist, as opposed to a resolver having trouble. */
const DNS_PERMANENT = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);
const DNS_TEMPORARY = new Set(['EAI_AGAIN', 'ESERVFAIL', 'ETIMEOUT']);

/** Maps whatever undici, node:net or node:dns threw into the taxonomy (body-reader handles zlib). */
export function errorFromThrown(err: unknown, url: string): FreshetError {
  if (err instanceof FreshetError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  const fields = { url: redactUrl(url), cause_code: typeof code === 'string' ? code : undefined };
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'ETIMEDOUT':
      return new FreshetError(ErrorCodes.fetchTimeout, 'retryable', `timed out: ${message}`, fields, err);
    case 'UND_ERR_HEADERS_OVERFLOW':
      return new FreshetError(ErrorCodes.fetchHeadersTooLarge, 'non_retryable', 'response headers too large', fields, err);
    case 'UND_ERR_RES_EXCEEDED_MAX_SIZE':
      return new FreshetError(ErrorCodes.fetchBodyTooLarge, 'non_retryable', 'response body too large', fields, err);
  }
  if (typeof code === 'string' && DNS_PERMANENT.has(code)) {
    return new FreshetError(ErrorCodes.fetchDns, 'non_retryable', `host not found: ${message}`, fields, err);
  }
  if (typeof code === 'string' && DNS_TEMPORARY.has(code)) {
    return new FreshetError(ErrorCodes.fetchDns, 'retryable', `DNS failure: ${message}`, fields, err);
  }
  if (typeof code === 'string' && code.startsWith('HPE_')) {
    // A malformed response is usually a broken server or middlebox, which can recover.
    return new FreshetError(ErrorCodes.fetchConnection, 'retryable', `malformed HTTP response: ${message}`, fields, err);
  }
  return new FreshetError(ErrorCodes.fetchConnection, 'retryable', `connection failed: ${message}`, fields, err);
}

export function invalidUrl(url: string, why: string): FreshetError {
  return new FreshetError(ErrorCodes.fetchInvalidUrl, 'non_retryable', `invalid URL: ${why}`, { url: redactUrl(url) });
}

export function bodyTooLarge(url: string, maxBytes: number, seenBytes: number): FreshetError {
  return new FreshetError(ErrorCodes.fetchBodyTooLarge, 'non_retryable', `body exceeds ${maxBytes} bytes`, {
    url: redactUrl(url),
    max_body_bytes: maxBytes,
    seen_bytes: seenBytes,
  });
}

export function timedOut(url: string, timeoutMs: number): FreshetError {
  return new FreshetError(ErrorCodes.fetchTimeout, 'retryable', `request exceeded ${timeoutMs} ms`, { url: redactUrl(url), timeout_ms: timeoutMs });
}

export function aborted(url: string, reason: unknown): FreshetError {
  return new FreshetError(ErrorCodes.fetchAborted, 'retryable', 'fetch aborted by the caller', { url: redactUrl(url) }, reason);
}

/** The same error with the number of attempts made, for the dead-letter record. */
export function withAttempts(err: FreshetError, attempts: number, retryAfterMs = err.retryAfterMs, kind = err.kind): FreshetError {
  return new FreshetError(err.code, kind, err.message, { ...err.fields, attempts }, err.cause, retryAfterMs);
}

export function decodeFailed(url: string, err: unknown): FreshetError {
  const message = err instanceof Error ? err.message : String(err);
  return new FreshetError(ErrorCodes.fetchDecode, 'non_retryable', `cannot decode body: ${message}`, { url: redactUrl(url) }, err);
}

export { redactUrl } from '../core/redact';
