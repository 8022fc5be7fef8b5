/**
 * Empties the elements of a page that never carry its main text before the page is parsed, so a
 * huge page (framework state in a script, icon sprites, inline styles) costs a DOM of its visible
 * markup, not of its payloads. The extractors drop these elements anyway (clean.ts), so the text,
 * title, author and date read from the page do not change; `application/ld+json` scripts are kept
 * whole (metadata.ts reads them), and so are the element tags with their attributes.
 *
 * One linear pass that finds element boundaries the way htmlparser2's tokenizer does (raw-text
 * elements end at the first `</name` followed by `>` or a space; comments at `-->`; other `<!`,
 * `<?` and `</` tokens at the next `>`). Where it cannot find an end (an unclosed `<svg>`, an
 * unterminated comment) it leaves the rest of the page as it is.
 */

import { dataObjectDates } from './dates';

/** Elements whose contents are emptied. */
export const HEAVY_ELEMENTS: readonly string[] = ['script', 'style', 'svg', 'template'];

/** Elements whose contents htmlparser2 reads as raw text (nothing inside is a tag). */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp']);

/** The type as written: htmlparser2 decodes character references in attributes (`ld&#x2B;json`). */
const LD_JSON_RE = /\btype\s*=\s*["']?\s*application\/ld(?:\+|&#x0*2b;?|&#0*43;?|&plus;)json/i;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
const isAlpha = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
/** What may follow a tag name: a space, `/` or `>` (end of input too: the tag is cut). */
const endsName = (s: string, i: number): boolean => i >= s.length || isSpace(s.charCodeAt(i)) || s.charCodeAt(i) === 0x2f || s.charCodeAt(i) === 0x3e;

/** The lower-cased tag name at `i` (just after `<` or `</`); '' when none starts there. */
function nameAt(s: string, i: number): string {
  if (i >= s.length || !isAlpha(s.charCodeAt(i))) return '';
  let j = i + 1;
  while (!endsName(s, j)) j++;
  return s.slice(i, j).toLowerCase();
}

/** The index after the `>` that ends the open tag whose attributes start at `i`; -1 when none does. */
function openTagEnd(s: string, i: number): number {
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x3e) return j + 1;
    if (c !== 0x3d) continue;
    // An attribute value in quotes may hold `>`.
    let k = j + 1;
    while (k < s.length && isSpace(s.charCodeAt(k))) k++;
    const q = s.charCodeAt(k);
    if (q === 0x22 || q === 0x27) {
      const close = s.indexOf(q === 0x22 ? '"' : "'", k + 1);
      if (close < 0) return -1;
      j = close;
    } else {
      j = k - 1;
    }
  }
  return -1;
}

/** Where `</name` followed by a space or `>` starts, from `i` (raw text); -1 when nowhere. */
function rawTextEnd(s: string, name: string, i: number): number {
  for (let j = s.indexOf('</', i); j >= 0; j = s.indexOf('</', j + 2)) {
    if (s.length < j + 2 + name.length + 1) return -1;
    if (s.slice(j + 2, j + 2 + name.length).toLowerCase() !== name) continue;
    const c = s.charCodeAt(j + 2 + name.length);
    if (c === 0x3e || isSpace(c)) return j;
  }
  return -1;
}

/** The index after the `>` of `</name…>` at `j`; -1 when the page ends first. */
function closeTagEnd(s: string, j: number): number {
  const gt = s.indexOf('>', j);
  return gt < 0 ? -1 : gt + 1;
}

/** The index after the comment at `i` (`<!--` there); -1 when unterminated. */
function commentEnd(s: string, i: number): number {
  // `<!-->` and `<!--->` are empty comments.
  if (s.startsWith('>', i + 4)) return i + 5;
  if (s.startsWith('->', i + 4)) return i + 6;
  const end = s.indexOf('-->', i + 4);
  return end < 0 ? -1 : end + 3;
}

/**
 * One token at `lt` (a `<`): where the scan goes on after it, and for an element's open tag its
 * name and where its contents start. -1: the page ends inside the token.
 */
interface Token { next: number; name?: string; contentStart?: number; selfClosing?: boolean }
function tokenAt(s: string, lt: number): Token {
  const c = s.charCodeAt(lt + 1);
  if (c === 0x21 && s.startsWith('<!--', lt)) return { next: commentEnd(s, lt) };
  if (c === 0x21 || c === 0x3f) return { next: closeTagEnd(s, lt) };
  if (c === 0x2f) return { next: closeTagEnd(s, lt) };
  const name = nameAt(s, lt + 1);
  if (!name) return { next: lt + 1 };
  const end = openTagEnd(s, lt + 1 + name.length);
  if (end < 0) return { next: -1 };
  if (RAW_TEXT.has(name)) {
    const close = rawTextEnd(s, name, end);
    return { next: close < 0 ? -1 : close, name, contentStart: end };
  }
  return { next: end, name, contentStart: end, selfClosing: s.charCodeAt(end - 2) === 0x2f };
}

/** Where the contents of a nestable element (`svg`, `template`) opened before `i` end; -1 when they do not. */
function nestedEnd(s: string, name: string, i: number): number {
  let depth = 1;
  for (let lt = s.indexOf('<', i); lt >= 0; ) {
    if (s.charCodeAt(lt + 1) === 0x2f && nameAt(s, lt + 2) === name) {
      if (--depth === 0) return lt;
      const after = closeTagEnd(s, lt);
      if (after < 0) return -1;
      lt = s.indexOf('<', after);
      continue;
    }
    const t = tokenAt(s, lt);
    if (t.next < 0) return -1;
    // svg nests only where it is not self-closing (`<svg/>` is empty inside foreign content).
    if (t.name === name && !(t.selfClosing && name === 'svg')) depth++;
    lt = s.indexOf('<', t.next);
  }
  return -1;
}

/**
 * What the extractors read of removed contents: the first publication date in a data object
 * (dates.ts reads the page's first one from the raw HTML), written back in a form it reads alike.
 */
function residue(removed: string): string {
  const date = dataObjectDates(removed, 1)[0];
  return date === undefined ? '' : `"datePublished":"${date}"`;
}

export interface StripOptions {
  /** Element names left whole (a rule set that reads scripts keeps them). */
  keep?: ReadonlySet<string>;
  /**
   * Elements and comments that begin before this index are left whole: the page's opening as
   * sent is kept for the readers of raw markup (the forum markers, page-kind.ts).
   */
  from?: number;
}

/**
 * `html` with the contents of `script` (other than ld+json), `style`, `svg` and `template`
 * elements and of comments removed (a comment stays, empty: it still parts the text around it),
 * but for the first data-object publication date each held, kept in place.
 */
export function stripHeavyMarkup(html: string, options: StripOptions = {}): string {
  const keep = options.keep ?? new Set<string>();
  const from = options.from ?? 0;
  const heavy = new Set(HEAVY_ELEMENTS.filter((n) => !keep.has(n)));
  const out: string[] = [];
  let last = 0;
  let lt = html.indexOf('<');
  while (lt >= 0) {
    if (html.startsWith('<!--', lt)) {
      const end = commentEnd(html, lt);
      if (end < 0) break;
      if (lt >= from && end > lt + 7) {
        out.push(html.slice(last, lt), `<!--${residue(html.slice(lt + 4, end - 3))}-->`);
        last = end;
      }
      lt = html.indexOf('<', end);
      continue;
    }
    const t = tokenAt(html, lt);
    if (t.next < 0) break;
    if (t.name === undefined || lt < from || !heavy.has(t.name) || (t.selfClosing === true && t.name === 'svg')
      || (t.name === 'script' && LD_JSON_RE.test(html.slice(lt, t.contentStart)))) {
      lt = html.indexOf('<', t.next === lt ? lt + 1 : t.next);
      continue;
    }
    const contentEnd = RAW_TEXT.has(t.name) ? t.next : nestedEnd(html, t.name, t.contentStart!);
    if (contentEnd < 0) break;
    const rest = residue(html.slice(t.contentStart, contentEnd));
    out.push(html.slice(last, t.contentStart), RAW_TEXT.has(t.name) || rest === '' ? rest : `<!--${rest}-->`);
    last = contentEnd;
    lt = html.indexOf('<', contentEnd + 1);
  }
  if (last === 0) return html;
  out.push(html.slice(last));
  return out.join('');
}
