/**
 * Error taxonomy. Every error freshet raises carries a stable code and the class of retry
 * decision it implies; one function (`retryDecision`) turns that into what to do.
 */
export type ErrorKind = 'retryable' | 'throttled' | 'non_retryable' | 'critical';

export class FreshetError extends Error {
  readonly code: string;
  readonly kind: ErrorKind;
  readonly fields: Readonly<Record<string, unknown>>;

  constructor(code: string, kind: ErrorKind, message: string, fields: Record<string, unknown> = {}, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'FreshetError';
    this.code = code;
    this.kind = kind;
    this.fields = fields;
  }
}

/** Stable codes used across the code base; logs, metrics and the dead-letter stream carry these. */
export const ErrorCodes = {
  configInvalid: 'E_CONFIG_INVALID',
  searchUnreachable: 'E_SEARCH_UNREACHABLE',
  searchUnsupported: 'E_SEARCH_UNSUPPORTED',
  searchRequestFailed: 'E_SEARCH_REQUEST',
  templateInvalid: 'E_TEMPLATE_INVALID',
} as const;

export function isFreshetError(err: unknown): err is FreshetError {
  return err instanceof FreshetError;
}
