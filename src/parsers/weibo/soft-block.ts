import { ErrorCodes, FreshetError } from '../../core/errors';

/**
 * Soft blocks: the site refuses with HTTP 200 (or 432) and a body that is no data: a captcha or
 * verification page, "too frequent", a 432 for a rejected client. They are throttling, never "no
 * posts": the error is `throttled` (the subject is rescheduled, the identity cooled down) and
 * carries `soft_block` = the reason, for the count.
 */
export type SoftBlockReason = 'captcha' | 'too_frequent' | 'client_rejected';

/** How long a soft-blocked request should wait before the next try; the politeness controller escalates from here. */
export const SOFT_BLOCK_BACKOFF_MS = 60_000;

export function softBlockError(reason: SoftBlockReason, url: string, detail: string, redirect?: string): FreshetError {
  const code = reason === 'captcha' ? ErrorCodes.captcha : ErrorCodes.rateLimitedBody;
  return new FreshetError(code, 'throttled', `soft block (${reason}): ${detail}`, { url, soft_block: reason, ...(redirect ? { redirect } : {}) }, undefined, SOFT_BLOCK_BACKOFF_MS);
}

/** `url`s of verification pages (never matched on `verify` alone in text: every user object has `verified`). */
export const VERIFY_URL = /\/captcha\b|\/verify\b|verify_code|security\.weibo|sass\/?\?|\/unfreeze|check_captcha/i;
/** Messages and page text the site throttles with (spec §1.7). */
export const THROTTLE_TEXT = /操作过于频繁|访问过于频繁|请求过于频繁|请输入验证码|verify_code|访问受限|账号存在异常|行为异常/;

/**
 * A body that is not JSON, classified by content: an HTML captcha or "too frequent" page is a soft
 * block. Undefined for anything else (a truncated JSON body stays a retryable parse error).
 */
export function softBlockOfText(text: string, url: string): FreshetError | undefined {
  const head = text.slice(0, 20_000);
  if (!/^\s*</.test(head)) return undefined;
  if (/验证码|captcha|geetest|安全验证|请完成验证/i.test(head)) return softBlockError('captcha', url, 'verification page');
  if (THROTTLE_TEXT.test(head)) return softBlockError('too_frequent', url, 'throttle page');
  return undefined;
}

/** HTTP statuses the microblog answers blocked clients with: 432 (client rejected, spec §1.7). */
export function softBlockOfStatus(err: unknown): FreshetError | undefined {
  if (!(err instanceof FreshetError) || err.code !== ErrorCodes.fetchHttpStatus) return undefined;
  if (err.fields['status'] !== 432) return undefined;
  return softBlockError('client_rejected', String(err.fields['url'] ?? ''), 'HTTP 432');
}
