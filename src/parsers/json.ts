import { ErrorCodes, FreshetError } from '../core/errors';

/**
 * The JSON parser every API adapter uses: a body must be a JSON object. Broken JSON is usually a
 * truncated body, which is transient (retryable); valid JSON of another shape never will be.
 */
export function parseJsonObject(text: string, url: string): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new FreshetError(ErrorCodes.parseJson, 'retryable', `invalid JSON from ${url}: ${(err as Error).message}`, { url, bytes: text.length });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new FreshetError(ErrorCodes.parseShape, 'non_retryable', `unexpected JSON shape from ${url}`, { url });
  }
  return body as Record<string, unknown>;
}
