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

/** The sentiment stage's default `zh_no_opinion_below`. */
export const ZH_NO_OPINION_BELOW = 0.9;

/** The opinion words beside a model folder's zh model; undefined when the folder has none. */
export function readOpinionWords(modelDir: string): OpinionWords | undefined {
  const path = join(modelDir, OPINION_WORDS_FILE);
  return existsSync(path) ? OpinionWords.read(path) : undefined;
}

/** A Weibo-style `#topic#` tag: what the post is about, not how it feels. */
const ZH_HASHTAG_RE = /#[^#\n]{1,40}#/g;

export interface LabelDecision {
  label: SentimentLabel;
  /**
   * Set when the label is a zh polar call below `zhNoOpinionBelow` that opinion words of its own
   * side support: those words (outside the post's hashtags). A reader that knows what the post is
   * about (the topics detector: a topic's own terms) can tell whether they are opinion or name.
   */
  opinion?: string[];
}

/**
 * The label to write. The zh model is binary (neither training file has a neutral class), so on a
 * post that says nothing it still picks a side, often from the n-grams of what the post is about
 * (a new topic's name, a place): a polar call below `zhNoOpinionBelow` that no opinion word of its
 * own side supports is an abstention (`neutral`). Words inside the post's `#hashtags#` are the
 * topic's name and never support a call. `words` is only read for such posts.
 */
export function decideSentiment(r: SentimentResult, text: string, rule: NeutralRule, words: () => OpinionWords | undefined): LabelDecision {
  if (r.label === 'neutral') return { label: r.label };
  if (Math.abs(r.score) < rule.neutralBand || r.confidence < rule.minConfidence) return { label: 'neutral' };
  const opinion = opinionSupport(r.label, r.lang, r.confidence, text, rule.zhNoOpinionBelow, words);
  if (!opinion) return { label: r.label };
  return opinion.length === 0 ? { label: 'neutral' } : { label: r.label, opinion };
}

/**
 * The opinion words of its own side (outside the post's hashtags) that a zh polar call below
 * `below` rests on; undefined when the gate does not look at the call (neutral, not zh, confident
 * enough, no word list). Also how a reader of an indexed post's label recovers them.
 */
export function opinionSupport(label: SentimentLabel, lang: string | undefined, confidence: number, text: string, below: number, words: () => OpinionWords | undefined): string[] | undefined {
  if (label === 'neutral' || lang !== 'zh' || !(confidence < below)) return undefined;
  const w = words();
  return w?.supporting(text.replace(ZH_HASHTAG_RE, ' '), label === 'positive' ? 1 : -1);
}

/** `decideSentiment`'s label. */
export function decideLabel(r: SentimentResult, text: string, rule: NeutralRule, words: () => OpinionWords | undefined): SentimentLabel {
  return decideSentiment(r, text, rule, words).label;
}
