import type { Block } from './blocks';
import { findAll, normalizeSpace, type DomParent } from './dom';

/**
 * Photo captions told by their words, not by their class: a gallery or a lightbox prints the
 * caption an image's alt text already holds (in full, or cut short with a "… more" toggle),
 * often more than once. selection.ts's isCaption catches a short one under its image; a long
 * caption in a slide elsewhere on the page is prose by every other measure, and is dropped only
 * when a class word says "caption". Truths of every source leave captions out.
 */

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
