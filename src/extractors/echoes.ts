import type { Block } from './blocks';
import type { DomParent } from './dom';

/** An address with nothing else on the line. */
const BARE_URL_RE = /^https?:\/\/\S+$/i;

/** An address without scheme, `www.`, trailing slash and fragment, for comparing. */
function urlKey(url: string): string {
  return url.trim().replace(/^https?:\/\/(?:www\.)?/i, '').replace(/#.*$/, '').replace(/\/+$/, '').toLowerCase();
}

/**
 * Whether a line is the page's own address and nothing else: a print header or a share box
 * spells it out for the reader to copy. It says nothing the page is about, and no article
 * states its own address in its text.
 */
export function isOwnUrlLine(text: string, pageUrls: readonly string[]): boolean {
  if (!BARE_URL_RE.test(text)) return false;
  const key = urlKey(text);
  return pageUrls.some((u) => u !== '' && urlKey(u) === key);
}

/** A line this long is a paragraph of the body (no headline, label or name). */
const BODY_LINE_CHARS = 150;

/**
 * Lines of the content that echo the page rather than say something: the page's own address,
 * and a second copy of the headline below the body's first paragraph and outside the box of its
 * paragraphs (a gallery overlay's or a sticky bar's title; the headline is the title field, and
 * the text holds it at most once, as the headline line itself). A copy above the body may be the
 * page's own headline, styled apart from the one the title matched (a product's name over its
 * description); a heading below it is a section of the body that restates the title. (Not every
 * line that repeats: an article repeats its lead under the summary, or a quoted post, and the
 * references keep both copies.)
 */
export function pageEchoes(
  lines: Block[],
  o: { pageUrls: readonly string[]; head: Block | undefined; isHeadline: (b: Block) => boolean },
): Set<Block> {
  const echoes = new Set<Block>();
  // The boxes holding the body's paragraphs so far: a copy among them is a paragraph of the story
  // that repeats the title's sentence (a post whose headline is its first line), not an overlay.
  const bodyBoxes = new Set<DomParent | null>();
  for (const b of lines) {
    const copy = bodyBoxes.size > 0 && o.head !== undefined && b !== o.head && b.heading === 0 && o.isHeadline(b);
    if (isOwnUrlLine(b.text, o.pageUrls) || (copy && !bodyBoxes.has(b.owner.parent))) echoes.add(b);
    if (b.chars >= BODY_LINE_CHARS) bodyBoxes.add(b.owner.parent);
  }
  return echoes;
}
