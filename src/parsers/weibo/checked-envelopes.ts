import { FreshetError } from '../../core/errors';
import { parseEnvelope, type Envelope } from './shapes';
import { softBlockOfText } from './soft-block';

/** Captcha pages, throttle notices and `ok:-100` bodies are a few kilobytes; data pages are larger or parse as data. */
const SOFT_BLOCK_MAX_CHARS = 32_768;
/** Envelopes the soft-block check parsed and the read has not taken yet (a body the fetcher refused is never taken). */
const CHECKED_MAX = 64;

/**
 * The soft-block check of short bodies, and the envelopes it parsed, by body, until the read of
 * that body takes them: parsing a short body twice (check, then read) was a third of the JSON
 * crawl's parsing. Taken once, so a read never shares an object with another; bounded, oldest out
 * first.
 */
export class CheckedEnvelopes {
  private readonly checked = new Map<string, { url: string; env: Envelope }>();

  /** Soft-block bodies are short: longer answers are data (parsed once, by the visit). */
  softBlockOf(res: { url: string; text: string }): { reason: string; error: FreshetError } | undefined {
    if (res.text.length > SOFT_BLOCK_MAX_CHARS) return undefined;
    let err: unknown;
    try {
      if (/^\s*</.test(res.text)) err = softBlockOfText(res.text, res.url);
      else this.remember(res.text, res.url, parseEnvelope(res.text, res.url));
    } catch (thrown) {
      err = thrown;
    }
    const reason = err instanceof FreshetError ? err.fields['soft_block'] : undefined;
    return typeof reason === 'string' ? { reason, error: err as FreshetError } : undefined;
  }

  /** The envelope the check parsed of this very body at this URL, once. */
  take(url: string, text: string): Envelope | undefined {
    const hit = this.checked.get(text);
    if (hit === undefined) return undefined;
    this.checked.delete(text);
    return hit.url === url ? hit.env : undefined;
  }

  private remember(text: string, url: string, env: Envelope): void {
    if (this.checked.size >= CHECKED_MAX) this.checked.delete(this.checked.keys().next().value!);
    this.checked.set(text, { url, env });
  }
}
