import { FreshetError } from '../../core/errors';
import { redactUrl } from '../fetch-errors';

/** Stable codes of the render fetch mode (logs, metrics labels, dead letters). */
export const RenderErrorCodes = {
  /** The browser process or the page's renderer died. */
  crashed: 'E_RENDER_CRASHED',
  /** The page used up its time budget (hung script, wait condition never met). */
  timeout: 'E_RENDER_TIMEOUT',
  /** The browser could not be started. */
  launch: 'E_RENDER_LAUNCH',
  /** Anything else the browser reported while rendering. */
  failed: 'E_RENDER_FAILED',
} as const;

export const renderCrashed = (url: string, what: string): FreshetError =>
  new FreshetError(RenderErrorCodes.crashed, 'retryable', `${what} crashed while rendering`, { url: redactUrl(url) });

export const renderTimedOut = (url: string, budgetMs: number): FreshetError =>
  new FreshetError(RenderErrorCodes.timeout, 'retryable', `render exceeded ${budgetMs} ms`, { url: redactUrl(url), timeout_ms: budgetMs });

export const renderFailed = (url: string, cause: unknown): FreshetError =>
  new FreshetError(RenderErrorCodes.failed, 'retryable', `render failed: ${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}`, { url: redactUrl(url) }, cause);
