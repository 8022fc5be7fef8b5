import type { Block } from './blocks';
import { inCodeBlock } from './code-lines';
import { isElement, textContent } from './dom';

/**
 * Characters from which a code line in a thread is a pasted dump (a build log, a traceback run,
 * a config file): a command, a snippet or an error message that a post discusses is a few hundred.
 */
const MIN_DUMP_CHARS = 4000;
/** Share of the line a <code> element beside the prose must hold (a log pasted as inline code in a <p>). */
const MIN_CODE_SHARE = 0.9;

/** Whether a line is code: in a <pre>, or nearly all of it in <code> children of its owner. */
function isCodeLine(b: Block): boolean {
  if (inCodeBlock(b.owner)) return true;
  let code = 0;
  for (const c of b.owner.children) if (isElement(c) && c.name === 'code') code += textContent(c).replace(/\s+/g, '').length;
  return code >= MIN_CODE_SHARE * b.chars;
}

/** Whether a line is a pasted dump: a code line of MIN_DUMP_CHARS or more. */
function isPastedDump(b: Block): boolean {
  return b.chars >= MIN_DUMP_CHARS && isCodeLine(b);
}

/**
 * Characters of a dump a reader takes in: the lines its scroll box shows before anyone scrolls
 * (the command, the first error of a traceback).
 */
const DUMP_HEAD_CHARS = 1200;

/** A dump's line cut to its head, at a space. */
function headOf(b: Block): Block {
  const cut = b.text.lastIndexOf(' ', DUMP_HEAD_CHARS);
  const text = b.text.slice(0, cut > 0 ? cut : DUMP_HEAD_CHARS);
  return { ...b, text, chars: text.length };
}

/**
 * A forum thread with only the heads of the dumps its posters paste: thousands of characters of
 * log or configuration in one code block are an attachment to the post, not what it says. The
 * engine shows such a block in a scroll box a few lines high, and a reader (and a thread's gold
 * text) takes in those lines and the post around it.
 */
export function cutPastedDumps(lines: Block[]): Block[] {
  return lines.some(isPastedDump) ? lines.map((b) => (isPastedDump(b) ? headOf(b) : b)) : lines;
}
