import { ErrorCodes, FreshetError } from '../core/errors';
import { underOrigin } from '../core/under-origin';

/**
 * `new URL(url).origin`, parsed only when the URL is not under the origin of the last one: a visit
 * asks one origin page after page, and a URL parse per request showed in the throughput profile.
 */
export class LastOrigin {
  private last = '';

  of(url: string): string {
    const last = this.last;
    if (last !== '' && underOrigin(url, last)) return last;
    const origin = originOf(url);
    // Opaque origins ("null") say nothing about the next URL.
    if (origin.startsWith('http://') || origin.startsWith('https://')) this.last = origin;
    return origin;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    throw new FreshetError(ErrorCodes.fetchInvalidUrl, 'non_retryable', `invalid URL: ${url}`, { url });
  }
}
