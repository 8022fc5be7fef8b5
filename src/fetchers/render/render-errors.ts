import { ErrorCodes, FreshetError } from '../../core/errors';
import { redactUrl } from '../fetch-errors';

export const renderCrashed = (url: string, what: string): FreshetError =>
  new FreshetError(ErrorCodes.renderCrashed, 'retryable', `${what} crashed while rendering`, { url: redactUrl(url) });

export const renderTimedOut = (url: string, budgetMs: number): FreshetError =>
  new FreshetError(ErrorCodes.renderTimeout, 'retryable', `render exceeded ${budgetMs} ms`, { url: redactUrl(url), timeout_ms: budgetMs });

export const renderFailed = (url: string, cause: unknown): FreshetError =>
  new FreshetError(ErrorCodes.renderFailed, 'retryable', `render failed: ${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}`, { url: redactUrl(url) }, cause);
