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

/** Lines in a row that must repeat, in the same order, for the second run to be a copy. */
const MIN_COPY_RUN = 3;
/** Characters such a run must hold: three short labels ("Menu", "Close", "Back") repeat for real. */
const MIN_COPY_CHARS = 150;

/**
 * The content without a second copy of a run of its lines: templates render a section once per
 * breakpoint (Framer's `ssr-variant`s, a mobile and a desktop version of a table) or twice for
 * tabs and print, and both copies sit in the container. A run of `MIN_COPY_RUN` or more lines
 * that repeats an earlier run word for word, in order, is that copy; a single line that repeats
 * (a coupon's terms under each coupon, a refrain) stays.
 */
export function dropCopiedRuns(lines: Block[]): Block[] {
  const firstAt = new Map<string, number>();
  let drop: Set<number> | undefined;
  for (let i = 0; i < lines.length; i++) {
    const j = firstAt.get(lines[i]!.text);
    if (j === undefined) {
      firstAt.set(lines[i]!.text, i);
      continue;
    }
    let k = 0;
    let chars = 0;
    while (i + k < lines.length && j + k < i && lines[i + k]!.text === lines[j + k]!.text) chars += lines[i + k++]!.chars;
    if (k >= MIN_COPY_RUN && chars >= MIN_COPY_CHARS) {
      drop ??= new Set();
      for (let m = 0; m < k; m++) drop.add(i + m);
      i += k - 1;
    }
  }
  return drop ? lines.filter((_, i) => !drop!.has(i)) : lines;
}

/**
 * The content without a card's repeats of its own line: a product or story card renders its
 * name two or three times in a row (over the picture, as the title, in a quick-view panel), and
 * read as text the name counts thrice. Only lines of one item (items.ts) that follow a line of
 * the same item with the same text; a line repeated elsewhere stays.
 */
export function dropCardRepeats(lines: Block[], items: ReadonlyMap<Block, unknown> | undefined): Block[] {
  if (!items) return lines;
  let drop: Set<Block> | undefined;
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1]!;
    const b = lines[i]!;
    const item = items.get(b);
    if (item !== undefined && items.get(prev) === item && b.text === prev.text) (drop ??= new Set()).add(b);
  }
  return drop ? lines.filter((b) => !drop!.has(b)) : lines;
}
