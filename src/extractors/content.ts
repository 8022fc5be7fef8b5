import type { Block } from './blocks';
import { isAncestorOf, lowestCommonAncestor, type DomElement, type DomParent } from './dom';
import { gaussianSmooth, type ScoringParams } from './scoring';
import { topSegments, type Segment } from './segments';
import { segmentContainer, selectLines, signature, type SelectionParams } from './selection';

export interface ContentParams {
  /** Further segments are candidates when worth at least this share of the best one. */
  minSegmentFraction: number;
  /** Weight of the first segment that ends at or after the headline (the article follows its title). */
  titleBonus: number;
}

export const DEFAULT_CONTENT: ContentParams = { minSegmentFraction: 0.15, titleBonus: 2 };

function pickMain(segs: Segment[], titleIndex: number | undefined, bonus: number): Segment | undefined {
  const afterTitle = titleIndex === undefined ? undefined : segs.find((s) => s.end >= titleIndex);
  let best: Segment | undefined;
  let bestScore = -Infinity;
  for (const s of segs) {
    const score = s.sum * (s === afterTitle ? bonus : 1);
    if (score > bestScore) [best, bestScore] = [s, score];
  }
  return best;
}

function commentShare(blocks: Block[], values: number[], seg: Segment): number {
  let all = 0;
  let inComments = 0;
  for (let i = seg.start; i <= seg.end; i++) {
    if (values[i]! <= 0) continue;
    all += blocks[i]!.chars;
    if (blocks[i]!.inComments) inComments += blocks[i]!.chars;
  }
  return all === 0 ? 0 : inComments / all;
}

/**
 * Chooses the content lines: the main maximum-sum segment (favouring the one after the
 * headline), plus segments whose containers repeat the main one's structure (forum posts) or
 * sit inside it (an article split by an embedded box). Reader comments of an article are dropped.
 */
export function chooseContent(
  blocks: Block[], rawValues: number[], titleIndex: number | undefined,
  scoring: ScoringParams, selection: SelectionParams, params: ContentParams,
): Block[] {
  let values = rawValues;
  let segs = topSegments(gaussianSmooth(values, scoring.sigmaLines), params.minSegmentFraction);
  let main = pickMain(segs, titleIndex, params.titleBonus);
  if (!main) return [];
  const dropComments = commentShare(blocks, values, main) < selection.commentShare;
  if (dropComments && blocks.some((b) => b.inComments)) {
    values = rawValues.map((v, i) => (blocks[i]!.inComments ? -scoring.threshold : v));
    segs = topSegments(gaussianSmooth(values, scoring.sigmaLines), params.minSegmentFraction);
    main = pickMain(segs, titleIndex, params.titleBonus);
    if (!main) return [];
  }
  const mainContainer = segmentContainer(blocks, values, main);
  if (!mainContainer) return [];
  const weights = new Map<DomElement, number>();
  const chosen: Block[][] = [];
  for (const seg of segs) {
    const container = seg === main ? mainContainer : segmentContainer(blocks, values, seg);
    if (!container) continue;
    if (seg !== main && !isAncestorOf(mainContainer, container)) {
      const top = lowestCommonAncestor([container, mainContainer]) as DomParent;
      if (signature(container, top) !== signature(mainContainer, top)) continue;
    }
    chosen.push(selectLines(blocks, seg, container, dropComments, selection, weights));
  }
  return chosen.flat().sort((a, b) => a.index - b.index);
}
