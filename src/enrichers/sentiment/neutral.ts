import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SentimentResult } from './model';
import type { SentimentLabel } from './model-file';
import { OpinionWords } from './opinion-words';

/** How a model's label becomes the label written (the sentiment stage's abstaining options). */
export interface NeutralRule {
  /** `neutral` when |score| is below this. */
  neutralBand: number;
  /** `neutral` when the calibrated confidence is below this. */
  minConfidence: number;
  /**
   * zh only: `neutral` when the post holds no opinion word or polar emoticon of the call's own
   * polarity (`OpinionWords`) and the confidence is below this (0: never; above 1: every such post).
   */
  zhNoOpinionBelow: number;
}

export const OPINION_WORDS_FILE = 'zh-opinion-words.txt';

/** The opinion words beside a model folder's zh model; undefined when the folder has none. */
export function readOpinionWords(modelDir: string): OpinionWords | undefined {
  const path = join(modelDir, OPINION_WORDS_FILE);
  return existsSync(path) ? OpinionWords.read(path) : undefined;
}

/**
 * The label to write. The zh model is binary (neither training file has a neutral class), so on a
 * post that says nothing it still picks a side, often from the n-grams of what the post is about
 * (a new topic's name, a place): a polar call below `zhNoOpinionBelow` that no opinion word of its
 * own side supports is an abstention (`neutral`). `words` is only read for such posts.
 */
export function decideLabel(r: SentimentResult, text: string, rule: NeutralRule, words: () => OpinionWords | undefined): SentimentLabel {
  if (r.label === 'neutral') return r.label;
  if (Math.abs(r.score) < rule.neutralBand || r.confidence < rule.minConfidence) return 'neutral';
  if (r.lang === 'zh' && r.confidence < rule.zhNoOpinionBelow) {
    const w = words();
    if (w && !w.hasOpinion(text, r.label === 'positive' ? 1 : -1)) return 'neutral';
  }
  return r.label;
}
