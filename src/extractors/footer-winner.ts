import type { Block } from './blocks';

/**
 * A winner that is the page's footer: once its markup says nothing (no <footer>, no telling
 * class), a footer of long disclaimers and addresses outweighs a short article above it. Two
 * signs that hold on any site: it starts in the last part of the page, and it holds the page's
 * copyright notice, a short line only a footer prints. Then the content is looked for again
 * above it, one more pass of the segment model on those pages only.
 */

/** "Copyright © 2023 …", "Copyright 2024 …", "© 2024 …". */
const COPYRIGHT_RE = /copyright\s*(?:©|\(c\)|\d{4})|©\s*\d{4}/i;
/** A notice is a short line; an article about copyright law may quote one in a sentence. */
const MAX_NOTICE_CHARS = 120;
/** Lines after the winner's last where its copyright notice may stand. */
const NOTICE_REACH_LINES = 3;
/** The winner starts past this share of the page's lines. */
const MIN_START_SHARE = 0.6;
/** What is found above the footer must be a text, not a menu label. */
export const MIN_ABOVE_FOOTER_CHARS = 200;
/** The value a footer line gets in the second pass: no segment can take it. */
const EXCLUDED_VALUE = -1e9;

/** Whether the chosen lines are the page's footer (see above). */
export function isFooterWinner(blocks: Block[], chosen: Block[]): boolean {
  const start = chosen[0];
  if (!start || start.index < MIN_START_SHARE * blocks.length) return false;
  // The notice itself is boilerplate the winner may have left out: it is looked for among the
  // winner's lines and the few after them.
  const end = chosen[chosen.length - 1]!.index + NOTICE_REACH_LINES;
  return blocks.slice(start.index, end + 1).some((b) => b.chars <= MAX_NOTICE_CHARS && COPYRIGHT_RE.test(b.text));
}

/** The line values with the footer and everything after it out of reach. */
export function valuesAbove(values: number[], footerStart: Block): number[] {
  return values.map((v, i) => (i >= footerStart.index ? EXCLUDED_VALUE : v));
}
