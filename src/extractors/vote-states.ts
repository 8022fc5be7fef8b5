import type { Block } from './blocks';

/**
 * A vote widget that prerenders its count once per state (voted down, not voted, voted up: old
 * Reddit's `score dislikes` / `score unvoted` / `score likes`) and lets the style sheet show one:
 * read as text the three counts run together ("188 points189 points190 points"), and none of
 * them reads as the number shown. Three counts of one unit, each one more than the last, glued or
 * spaced, are those states; the one between is the count a visitor sees.
 */
const STATES_RE = /(-?\d+)\s?(points?|votes?|likes?)\s?(-?\d+)\s?(?:points?|votes?|likes?)\s?(-?\d+)\s?(?:points?|votes?|likes?)(?![\p{L}\p{N}])/iu;

/** The unit's singular for a count of one ("1 point"), as the widget prints it. */
function unitFor(count: number, unit: string): string {
  const singular = unit.replace(/s$/i, '');
  return Math.abs(count) === 1 ? singular : `${singular}s`;
}

/** A line with its vote states read as the one count shown, or the line itself. */
function shownState(b: Block): Block {
  const m = STATES_RE.exec(b.text);
  if (!m) return b;
  const [down, shown, up] = [Number(m[1]), Number(m[3]), Number(m[4])];
  if (shown !== down + 1 || up !== shown + 1) return b;
  const text = `${b.text.slice(0, m.index)}${shown} ${unitFor(shown, m[2]!)}${b.text.slice(m.index + m[0].length)}`.replace(/\s+/g, ' ').trim();
  return { ...b, text, chars: text.replace(/\s+/g, '').length };
}

/** A thread's lines with each vote widget's prerendered states read as the count shown. */
export function shownVoteStates(lines: Block[]): Block[] {
  let changed = false;
  const out = lines.map((b) => {
    const s = shownState(b);
    if (s !== b) changed = true;
    return s;
  });
  return changed ? out : lines;
}
