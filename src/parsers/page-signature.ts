import { createHash } from 'node:crypto';

/**
 * The signature of a page's extracted main text: equal signatures mean the text did not change,
 * whatever the markup, ads, counters or whitespace around it did. The text is normalised first
 * (NFKC, so full-width and half-width forms agree; zero-width characters out; whitespace runs as
 * one space), then hashed; 64 bits is plenty to tell one page's versions apart and keeps the
 * frontier state small.
 */
export function normalizeMainText(text: string): string {
  return text.normalize('NFKC').replace(/[\u200B-\u200D\u2060\uFEFF]/g, '').replace(/\s+/g, ' ').trim();
}

export function contentSignature(text: string): string {
  return createHash('sha1').update(normalizeMainText(text)).digest('hex').slice(0, 16);
}

/** What a fetched page's text says against the signature kept from the last visit. */
export type TextChange = 'new' | 'unchanged' | 'changed';

export function textChange(previous: string | undefined, text: string): { change: TextChange; signature: string } {
  const signature = contentSignature(text);
  return { signature, change: previous === undefined ? 'new' : previous === signature ? 'unchanged' : 'changed' };
}
