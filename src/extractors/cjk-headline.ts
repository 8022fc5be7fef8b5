import type { Block } from './blocks';

/**
 * Chinese news text is written under its headline as one piece: the page's references (and a
 * reader copying the story) take the headline with the body, however the template styles it (a
 * classed <h1>, a <div class="title">) and wherever its header block sits. Which of those
 * templates a site uses says nothing about that, so the decision may not lean on them: the
 * class-and-header rule (inArticleFlow) held only where the headline's box carried content
 * words that pulled it into the chosen container, and lost it when the words changed.
 */
export function isCjkText(lines: readonly Block[]): boolean {
  let cjk = 0;
  let all = 0;
  for (const b of lines) {
    cjk += b.cjkChars;
    all += b.chars;
  }
  return all > 0 && cjk * 2 >= all;
}

/**
 * The chosen lines with the headline in front when the text is Chinese and the headline sits
 * above it, outside the chosen lines (a header block of its own); else the chosen lines. A
 * heading as high between it and the text is the story's own headline, and the line matched as
 * the title was the channel's name the <title> also carries ("…-国企红筹-经济通"): that
 * heading, the nearest the text, goes in front instead. None goes when the chosen lines hold
 * one as high of their own.
 */
export function withCjkHeadline(blocks: readonly Block[], chosen: Block[], head: Block | undefined): Block[] {
  const first = chosen[0];
  if (!head || !first || head.index >= first.index || !isCjkText(chosen)) return chosen;
  const level = head.heading > 0 ? head.heading : 1;
  const higher = (b: Block): boolean => b.heading > 0 && b.heading <= level;
  if (chosen.some(higher)) return chosen;
  const nearer = blocks.slice(head.index + 1, first.index).findLast(higher);
  return [nearer ?? head, ...chosen];
}
