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
  const { opens, closes } = countDivTags(source);
  return opens >= 3 && closes < opens / 2;
}

const SPACE_RE = /\s/;
/** `d`, `i`, `v` in either case: an ASCII letter's code with 0x20 set is its lower case (no other code maps to these). */
const isDiv = (s: string, i: number): boolean => (s.charCodeAt(i) | 0x20) === 0x64 && (s.charCodeAt(i + 1) | 0x20) === 0x69 && (s.charCodeAt(i + 2) | 0x20) === 0x76;

/**
 * The counts of `source.match(/<div[\s>]/gi)` and `source.match(/<\/div\s*>/gi)`, from one scan
 * from `<` to `<` that builds no array of matches (on every page of the page thread, the two
 * regex scans with their arrays cost as much as reading the page's metadata).
 */
export function countDivTags(source: string): { opens: number; closes: number } {
  let opens = 0;
  let closes = 0;
  const n = source.length;
  for (let i = source.indexOf('<'); i !== -1; i = source.indexOf('<', i + 1)) {
    if (source.charCodeAt(i + 1) === 0x2f) {
      if (!isDiv(source, i + 2)) continue;
      let j = i + 5;
      while (j < n && SPACE_RE.test(source[j]!)) j++;
      if (source.charCodeAt(j) === 0x3e) closes++;
    } else if (isDiv(source, i + 1)) {
      const c = source[i + 4];
      if (c === '>' || (c !== undefined && SPACE_RE.test(c))) opens++;
    }
  }
  return { opens, closes };
}
