import type { Block } from './blocks';
import { isElement, type DomParent } from './dom';
import { linkRatio } from './scoring';

/**
 * A second opinion on where the content is, from a different model than the line segments: the
 * paragraph-container score of Readability (Arc90): each paragraph-like line gives its container
 * 1 + its commas + 1 per 100 characters (at most 3), its container's parent half of that and the
 * next one a third; the container with the highest score, discounted by its link density, holds
 * the article. It looks at containers rather than runs of lines, so it is wrong in different
 * places than the segment model: where the segment model finds next to nothing, a container
 * with many paragraphs is the better answer.
 */
export interface SecondOpinionParams {
  /** Characters a line needs to count as a paragraph. */
  minParagraphChars: number;
  /** The second opinion replaces the first when the first holds less than this share of its characters… */
  maxFirstShare: number;
  /** …and it holds at least this many characters. */
  minChars: number;
}

export const DEFAULT_SECOND_OPINION: SecondOpinionParams = { minParagraphChars: 25, maxFirstShare: 0.25, minChars: 300 };

const COMMA_RE = /[,，、]/g;

/** The container with the best paragraph score and its lines (link lists left out), or undefined. */
export function paragraphContainer(blocks: Block[], params: SecondOpinionParams = DEFAULT_SECOND_OPINION): { container: DomParent; lines: Block[] } | undefined {
  const score = new Map<DomParent, number>();
  const chars = new Map<DomParent, number>();
  const links = new Map<DomParent, number>();
  for (const b of blocks) {
    let depth = 0;
    for (let el: DomParent | null = b.owner.parent; el && depth < 8; el = el.parent, depth++) {
      chars.set(el, (chars.get(el) ?? 0) + b.chars);
      links.set(el, (links.get(el) ?? 0) + b.linkChars);
    }
    // Paragraphs only, and none under furniture words (a "recommended" list of teasers), as Readability discounts them.
    if (b.chars < params.minParagraphChars || linkRatio(b) > 0.5 || b.heading > 0 || b.classScore < 0) continue;
    const s = 1 + (b.text.match(COMMA_RE)?.length ?? 0) + Math.min(Math.floor(b.chars / 100), 3);
    let level = 0;
    for (let el: DomParent | null = b.owner.parent; el && level < 3; el = el.parent, level++) {
      if (!isElement(el)) break;
      score.set(el, (score.get(el) ?? 0) + s / (level === 0 ? 1 : level === 1 ? 2 : level * 3));
    }
  }
  let best: DomParent | undefined;
  let bestScore = 0;
  for (const [el, s] of score) {
    const c = chars.get(el) ?? 0;
    const final = s * (1 - (c === 0 ? 0 : (links.get(el) ?? 0) / c));
    if (final > bestScore) [best, bestScore] = [el, final];
  }
  if (!best) return undefined;
  const under = (b: Block): boolean => {
    for (let el: DomParent | null = b.owner; el; el = el.parent) if (el === best) return true;
    return false;
  };
  return { container: best, lines: blocks.filter((b) => under(b) && linkRatio(b) <= 0.5) };
}

/**
 * Whether the second opinion should stand: the first found less than `maxFirstShare` of what the
 * paragraph container holds, and that is a real text.
 */
export function preferSecond(first: Block[], second: Block[], params: SecondOpinionParams = DEFAULT_SECOND_OPINION): boolean {
  const count = (ls: Block[]): number => ls.reduce((a, b) => a + b.chars, 0);
  const c = count(second);
  return c >= params.minChars && count(first) < params.maxFirstShare * c;
}
