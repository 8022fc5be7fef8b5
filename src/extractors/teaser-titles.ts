import type { Block } from './blocks';
import { isProse } from './second-opinion';
import { linkRatio } from './scoring';

/** Longest linked heading read as a card's title (a headline, not a paragraph in a link). */
const MAX_TITLE_CHARS = 200;

/**
 * The linked headings of the teasers the content holds: a listing's or a blog index's cards whose
 * snippets are plain text (so they score as text) while each title is a heading inside a link
 * (so the line selection drops it as navigation). A linked heading right before a kept snippet is
 * that card's title, and the page's text as much as the snippet is.
 */
export function teaserTitles(blocks: Block[], chosen: Block[]): Block[] {
  if (chosen.length < 2) return chosen;
  const kept = new Set(chosen);
  const titles: Block[] = [];
  for (const b of chosen) {
    if (b.heading > 0 || !isProse(b)) continue;
    const prev = blocks[b.index - 1];
    if (!prev || kept.has(prev) || prev.heading === 0 || prev.chars > MAX_TITLE_CHARS || linkRatio(prev) <= 0.5) continue;
    if (prev.classScore < 0 || prev.furniture || prev.inComments) continue;
    titles.push(prev);
  }
  return titles.length ? [...chosen, ...titles].sort((a, b) => a.index - b.index) : chosen;
}
