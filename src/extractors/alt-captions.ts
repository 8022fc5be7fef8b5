import type { Block } from './blocks';
import { findAll, lowestCommonAncestor, normalizeSpace, textContent, type DomElement, type DomParent } from './dom';

/**
 * Photo captions told by their words, not by their class: a gallery or a lightbox prints the
 * caption an image's alt text already holds (in full, or cut short with a "… more" toggle),
 * often more than once. selection.ts's isCaption catches a short one under its image; a long
 * caption in a slide elsewhere on the page is prose by every other measure, and is dropped only
 * when a class word says "caption". Truths of every source leave captions out.
 */

/** Up to this length a line that repeats the alt text of the image above it is a caption wherever it stands (selection.ts's isCaption). */
export const SHORT_CAPTION_CHARS = 80;
/** Characters beside the caption its figure may hold (a credit, a "Photo" label). */
const FIGURE_SLACK_CHARS = 30;

/**
 * Whether a line (its owner and its non-space characters) is the one text of an image's
 * figure: the smallest element around both the image and the line holds next to nothing else.
 * A CMS prints the image's alt text again as its caption in such a box (a field wrapper around
 * the <img> and a caption <div>), whatever its classes are called; a paragraph of the story an
 * alt text repeats stands beside the image in the story's own flow, among its other lines.
 */
export function isFigureCaption(image: DomElement, owner: DomParent, chars: number): boolean {
  const box = lowestCommonAncestor([image, owner]);
  if (!box || box.type === 'root') return false;
  return textContent(box).replace(/[\s\u00a0\u200b\u3000]+/g, '').length <= chars + FIGURE_SLACK_CHARS;
}

/** Shorter lines are names and labels an alt text may hold by chance ("Photo", a place). */
const MIN_CAPTION_CHARS = 40;
/** A caption's last sentence ends it (a name does not). */
const SENTENCE_END_RE = /[.!?。！？]["'”’)）]?$/;
/** A caption cut short ends with its toggle: "… more", "less". */
const TOGGLE_RE = /\s*(?:\.{3}|…)?\s*(?:more|less)$/i;

/** The page's alt texts long enough to hold a caption, each normalised. */
export function captionAlts(root: DomParent): string[] {
  return findAll(root, (el) => el.name === 'img' && (el.attribs.alt ?? '').length >= MIN_CAPTION_CHARS)
    .map((el) => normalizeSpace(el.attribs.alt ?? ''));
}

/**
 * The lines without the captions a gallery prints (see above): a line an image's alt text holds
 * word for word that the page prints more than once (the slide and its lightbox), or cut short
 * by its toggle. A product's or a story's name in its card's alt text is printed once, linked or
 * as a heading: it stays.
 */
export function dropAltCaptions(blocks: Block[], lines: Block[], alts: readonly string[]): Block[] {
  if (alts.length === 0) return lines;
  const printed = new Map<string, number>();
  const bare = (b: Block): string => b.text.replace(TOGGLE_RE, '').trim();
  for (const b of blocks) {
    const text = bare(b);
    printed.set(text, (printed.get(text) ?? 0) + 1);
  }
  const kept = lines.filter((b) => {
    if (b.heading > 0 || b.linkChars * 2 > b.chars) return true;
    const text = bare(b);
    if (text.length < MIN_CAPTION_CHARS || !alts.some((alt) => alt.includes(text))) return true;
    // A caption is a sentence; a product's name printed twice (title and gallery) is not.
    return text === b.text && ((printed.get(text) ?? 0) < 2 || !SENTENCE_END_RE.test(text));
  });
  return kept.length === lines.length ? lines : kept;
}
