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

/**
 * A forum thread without the dumps its posters paste: thousands of characters of log or
 * configuration in one code block are an attachment to the post, not what it says, and a
 * reader (and a thread's gold text) takes in the post around it. The engine shows such a block
 * in a scroll box a few lines high.
 */
export function dropPastedDumps(lines: Block[]): Block[] {
  const kept = lines.filter((b) => b.chars < MIN_DUMP_CHARS || !isCodeLine(b));
  return kept.length === lines.length ? lines : kept;
}
