import type { Block } from './blocks';
import { isElement, type DomParent } from './dom';

/** Tunable weights of the line score; the defaults were tuned on the dev part of extraction-dev. */
export interface ScoringParams {
  /** Weight of one Han/kana character relative to a Latin one. */
  cjkCharWeight: number;
  /** Value of one sentence punctuation mark, in effective characters. */
  punctWeight: number;
  /** Effective characters a line needs to be worth keeping (its value is length minus this). */
  threshold: number;
  /** Exponent on (1 - link ratio). */
  linkPower: number;
  /** Multiplier on positive values of lines under furniture-like class names. */
  furnitureFactor: number;
  /** Multiplier on positive values of lines under content-like class names. */
  contentFactor: number;
  /** Standard deviation of the Gaussian smoothing, in lines. */
  sigmaLines: number;
  /** Extra cost per link character (menus and tag lists cut segments). */
  linkPenalty: number;
}

export const DEFAULT_SCORING: ScoringParams = {
  cjkCharWeight: 2.5,
  punctWeight: 12,
  threshold: 50,
  linkPower: 2,
  furnitureFactor: 0.3,
  contentFactor: 1.3,
  sigmaLines: 1,
  linkPenalty: 0.5,
};

/** Forum posts are often a line or two: a lower bar per line. */
export const FORUM_SCORING: Partial<ScoringParams> = { threshold: 25 };

export function linkRatio(b: Block): number {
  return b.chars === 0 ? 0 : b.linkChars / b.chars;
}

/** Effective text length of a line, links discounted. */
export function effectiveLength(b: Block, p: ScoringParams): number {
  const weighted = b.chars - b.cjkChars + p.cjkCharWeight * b.cjkChars;
  return weighted * (1 - linkRatio(b)) ** p.linkPower;
}

/** Positive for content-like lines, negative for furniture; the input of the max-sum search. */
export function lineValue(b: Block, p: ScoringParams): number {
  let v = effectiveLength(b, p) + p.punctWeight * b.punct * (1 - linkRatio(b));
  if (b.classScore < 0) v *= p.furnitureFactor;
  else if (b.classScore > 0) v *= p.contentFactor;
  return v - p.threshold - p.linkPenalty * b.linkChars;
}

/** Parents whose children are items of one list: cells of a table row, items of a list. */
const ITEM_OF: Record<string, string> = { td: 'tr', th: 'tr', li: 'ul|ol', dt: 'dl', dd: 'dl' };

/**
 * What a line pools with: its own element, or for a table cell its row and for a list item its
 * list: a row of short cells or a list of short bullets says together what no item says alone.
 */
function poolOf(b: Block): DomParent {
  const o = b.owner;
  if (!isElement(o)) return o;
  const up = ITEM_OF[o.name];
  const parent = o.parent;
  return up !== undefined && parent && isElement(parent) && up.includes(parent.name) ? parent : o;
}

/**
 * Line values where the consecutive link-free lines of one element (a paragraph cut by <br>:
 * schedules, poems, addresses, old forum posts), of one table row or of one list are scored as
 * one node: length and punctuation together, the threshold paid once, the value shared out by
 * length. Other lines are scored alone.
 */
export function nodeValues(blocks: Block[], p: ScoringParams): number[] {
  const out = new Array<number>(blocks.length);
  for (let i = 0; i < blocks.length;) {
    let j = i;
    const pool = poolOf(blocks[i]!);
    // Link-free lines only: a line with a link is scored alone, so link lists never pool.
    const joins = (b: Block): boolean => b.linkChars === 0 && poolOf(b) === pool;
    if (blocks[i]!.linkChars === 0) while (j + 1 < blocks.length && joins(blocks[j + 1]!)) j++;
    if (j === i) {
      out[i] = lineValue(blocks[i]!, p);
    } else {
      const run = blocks.slice(i, j + 1);
      const node: Block = { ...blocks[i]!, chars: 0, linkChars: 0, cjkChars: 0, punct: 0 };
      for (const b of run) {
        node.chars += b.chars;
        node.linkChars += b.linkChars;
        node.cjkChars += b.cjkChars;
        node.punct += b.punct;
      }
      const v = lineValue(node, p);
      for (const b of run) out[b.index] = node.chars === 0 ? 0 : (v * b.chars) / node.chars;
    }
    i = j + 1;
  }
  return out;
}

/** Gaussian smoothing over neighbouring lines (kernel cut at 3 sigma, renormalised at the ends). */
export function gaussianSmooth(values: number[], sigma: number): number[] {
  if (sigma <= 0) return values.slice();
  const radius = Math.ceil(3 * sigma);
  const kernel: number[] = [];
  for (let k = -radius; k <= radius; k++) kernel.push(Math.exp(-(k * k) / (2 * sigma * sigma)));
  return values.map((_, i) => {
    let sum = 0;
    let wsum = 0;
    for (let k = -radius; k <= radius; k++) {
      const j = i + k;
      if (j < 0 || j >= values.length) continue;
      const w = kernel[k + radius]!;
      sum += w * values[j]!;
      wsum += w;
    }
    return sum / wsum;
  });
}
