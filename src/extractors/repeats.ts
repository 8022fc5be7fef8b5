import type { Block } from './blocks';

/** Lines shorter than this may repeat for real ("Thanks!", "+1", a user name): only longer ones count. */
const MIN_REPEAT_CHARS = 20;

/**
 * A forum thread's content without the copies: a reply that quotes an earlier post repeats its
 * lines word for word, and a member's signature repeats under each of their posts. The thread's
 * text holds each once (where it was first written); counted twice, the copies cost precision
 * and give the quoted words double weight in the index.
 */
export function dropRepeatedLines(lines: Block[]): Block[] {
  const seen = new Set<string>();
  let dropped = false;
  const kept = lines.filter((b) => {
    if (b.chars < MIN_REPEAT_CHARS) return true;
    const key = b.text.replace(/\s+/g, ' ').trim();
    if (seen.has(key)) return !(dropped = true);
    seen.add(key);
    return true;
  });
  return dropped ? kept : lines;
}
