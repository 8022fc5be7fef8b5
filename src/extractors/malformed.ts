import { decodeHtml } from '../core/charset';

/**
 * Whether HTML lost its structure: more than half its `<div>`s never closed. `</div>` is never
 * optional (unlike `</p>`, `</li>` or `</td>`), so real pages balance them: none of the 1,439
 * pages of the extraction dev sets has fewer closes than half its opens. A page that has lost
 * them (a broken server, a template error) parses into one nested run whose text scores
 * as boilerplate, so "no content" there would hide a parse failure.
 */
export function looksMalformed(html: string | Uint8Array, contentType?: string): boolean {
  const source = typeof html === 'string' ? html : decodeHtml(html, contentType).text;
  const opens = source.match(/<div[\s>]/gi)?.length ?? 0;
  if (opens < 3) return false;
  const closes = source.match(/<\/div\s*>/gi)?.length ?? 0;
  return closes < opens / 2;
}
