import { seededRng } from '../../src/core/rng';
import { EMOTICON_RE, type ZhFeatureSet } from '../../src/enrichers/sentiment/features';
import type { LinearModel, SentimentLabel } from '../../src/enrichers/sentiment/model-file';
import { calibrated, leastWorstEce, scoreOof, type OofScores } from './oof';
import { foldOf, memoisedOutOfFoldLogits, type CvExample } from './cv';
import { writeFileSync } from 'node:fs';
import { readPosts } from './data';
import { join } from 'node:path';
import { defaultModelDir } from '../../src/enrichers/sentiment/model';
import { OPINION_WORDS_FILE } from '../../src/enrichers/sentiment/neutral';
import { readPolarWords, zhLexicon } from '../../src/enrichers/sentiment/opinion-words';
import { coordinateSearch, type Config, type Grid } from './search';
import { textFusion, type MainOof, type TextFusionResult } from './text-fusion';
import { featurize, logCountRatioScale, trainBagged, type Example, type Featurized } from './sgd';
import { warmStartedFullBatch } from './lbfgs';

export interface ZhTrainOptions {
  trainDir: string;
  seed: number;
  folds: number;
  bucketsLog2: number;
  grid: Grid;
  segment?: (t: string) => string[];
  segmenter?: 'jieba' | 'jieba-hmm';
  log: (msg: string) => void;
  /** Rounds of the coordinate search. */
  passes: number;
  /** Candidate training mixes of the text-only model fused with the main one ([stripped ws100k, weibo2018] weights); none: no text model. */
  textMixes?: [number, number][];
  /**
   * L2 strengths of a text model fitted to convergence (full-batch L-BFGS, `trainFullBatch`), each
   * a candidate crossed with `textMixes`; none: the text model is trained like the main one.
   */
  textL2?: number[];
  /** NB scale of the full-batch text model (the main configuration's when absent). */
  textNb?: number;
  /** Writes the chosen configuration's out-of-fold logits (scored runs only), ids, kinds, gold labels and folds here (for stacking experiments). */
  dumpOof?: string;
}

/** A copy of `text` with each emoticon code dropped with probability ½ (at least one dropped, one kept when it has two or more). */
function dropSome(text: string, rng: { next(): number }): string {
  const codes = [...text.matchAll(EMOTICON_RE)];
  if (codes.length === 0) return text;
  let out = '';
  let at = 0;
  codes.forEach((m, i) => {
    const keep = codes.length === 1 ? false : i === 0 ? rng.next() < 0.5 : rng.next() < 0.5;
    out += text.slice(at, m.index) + (keep ? m[0] : '');
    at = m.index! + m[0].length;
  });
  return out + text.slice(at);
}

/**
 * The zh model: binary logistic regression over character n-grams, jieba words and emoticon codes,
 * trained on weibo_senti_100k (as posted, emoticon codes stripped, and some codes dropped: the
 * labels follow the codes, and these copies make the words count too) and weibo2018 (hand-labelled).
 * Source weights, L2 and epochs are chosen by k-fold cross-validation on sentiment-train only; the
 * calibration is fitted on the chosen configuration's out-of-fold scores.
 */
export function trainZh(o: ZhTrainOptions): { model: LinearModel; cv: OofScores; config: Config; fusion?: TextFusionResult } {
  const ws = readPosts(o.trainDir, 'ws100k');
  const w18 = readPosts(o.trainDir, 'weibo2018');
  const rng = seededRng(o.seed ^ 0x5eed);
  const base: CvExample[] = [
    ...ws.map((p) => ({ id: p.id, kind: 'ws100k', text: p.text, label: p.label, weight: 1 })),
    ...ws.map((p) => ({ id: p.id, kind: 'ws100k-stripped', text: p.text, label: p.label, weight: 1, stripEmoticons: true })),
    ...ws.map((p) => ({ id: p.id, kind: 'aug', text: dropSome(p.text, rng), label: p.label, weight: 1 })),
    ...w18.map((p) => ({ id: p.id, kind: 'weibo2018', text: p.text, label: p.label, weight: 1 })),
  ];
  o.log(`zh: ${base.length} examples (${ws.length} weibo_senti_100k posts x 3 copies, ${w18.length} weibo2018 posts)`);
  const featureSet = (c: Config): ZhFeatureSet => ({ ...(c['char4'] ? { char4: true } : {}), ...(c['bigrams'] ? { wordBigrams: true } : {}), ...(c['notags'] ? { noTags: true } : {}), ...(c['notags'] === 2 ? { noTagEchoes: true } : {}) });
  // HowNet's polar words (models/zh-opinion-words.txt) as binned counts, when the search keeps them.
  const lexicon = zhLexicon(readPolarWords(join(defaultModelDir(), OPINION_WORDS_FILE)));
  const lexFor = (c: Config): Map<number, number> | undefined => (c['lex'] ? lexicon : undefined);
  const cache = new Map<string, Featurized[]>();
  const featsFor = (c: Config): Featurized[] => {
    const key = JSON.stringify({ ...featureSet(c), lex: c['lex'] ?? 0 });
    let f = cache.get(key);
    if (!f) {
      o.log(`zh: featurizing with ${key}`);
      f = featurize('zh', base, o.segment, lexFor(c), featureSet(c));
      cache.set(key, f);
    }
    return f;
  };
  const classes: SentimentLabel[] = ['negative', 'positive'];
  const weighted = (c: Config): CvExample[] => base.map((e) => ({
    ...e, weight: e.kind === 'ws100k' ? 1 : e.kind === 'ws100k-stripped' ? c['stripped']! : e.kind === 'aug' ? c['dropped']! : c['weibo2018']!,
  }));
  // The NB scale is computed on the examples a model is trained on (the training folds), never on the scored fold.
  const train = (c: Config) => (ex: Example[], f: Featurized[]): LinearModel => trainBagged({
    lang: 'zh', classes, bucketsLog2: o.bucketsLog2, epochs: c['epochs']!, learningRate: c['lr']!, l2: c['l2']!, seed: o.seed, normPower: c['norm']!,
    ...(c['nb']! > 0 ? { scale: logCountRatioScale(o.bucketsLog2, ex, f, c['nb']!) } : {}),
  }, c['bag'] ?? 1, ex, f);
  const oofFor = memoisedOutOfFoldLogits<Config>(weighted, featsFor, o.folds, o.seed, train);
  // The three scored runs, the hand-labelled one counting double: weibo2018 is the closest to what
  // an analyst reads, weibo_senti_100k's labels are its emoticons', and its stripped run is how far
  // the words alone get on those posts.
  const kindWeights = { weibo2018: 2, ws100k: 1, 'ws100k-stripped': 1 };
  const objective = (s: OofScores): number => Object.entries(kindWeights).reduce((sum, [k, w]) => sum + w * s.kinds[k]!.accuracy, 0) / 4;
  const search = coordinateSearch(o.grid, (c) => {
    const s = scoreOof(base, oofFor(c), classes);
    o.log(`  zh ${JSON.stringify(c)}: ${Object.entries(s.kinds).map(([k, v]) => `${k} ${v.accuracy.toFixed(4)}`).join(', ')}`);
    return objective(s);
  }, o.log, o.passes);
  const config = search.config;
  // The text model fitted to convergence, with the main model's feature norm.
  const fullBatch = (l2: number, nb: number) => {
    const fit = warmStartedFullBatch({ lang: 'zh', classes, bucketsLog2: o.bucketsLog2, l2, normPower: config['norm']!, log: o.log });
    return (ex: Example[], f: Featurized[]): LinearModel => fit(ex, f, nb > 0 ? logCountRatioScale(o.bucketsLog2, ex, f, nb) : undefined);
  };
  const oof = oofFor(config);
  if (o.dumpOof) {
    const scored = base.map((_, i) => i).filter((i) => base[i]!.kind !== 'aug');
    writeFileSync(o.dumpOof, JSON.stringify({
      id: scored.map((i) => base[i]!.id), kind: scored.map((i) => base[i]!.kind), gold: scored.map((i) => classes.indexOf(base[i]!.label)),
      fold: scored.map((i) => foldOf(base[i]!.id, o.folds, o.seed)), oof: scored.map((i) => Array.from(oof[i]!)),
    }));
    o.log(`zh: wrote out-of-fold logits to ${o.dumpOof}`);
  }
  const feats = featsFor(config);
  // Group 0: posts without an emoticon code; group 1: posts with one. Group 0 is fitted on the
  // hand-labelled posts without codes, with or without the emoticon-stripped copies (whose labels
  // are the removed codes', so the words are surer of less): the choice whose worst
  // cross-validated calibration error over the three scored runs is the smaller (a post without
  // codes may be either kind, so neither run's calibration may be given up for the other's).
  const candidates = [1, 0].map((strippedWeight) => {
    const calibration = calibrated(base, oof, classes, (_e, f) => (f.emoticons > 0 ? 1 : 0), 2, feats, (e) => (e.kind === 'ws100k-stripped' ? strippedWeight : 1));
    const s = scoreOof(base, oof, classes, calibration, feats);
    o.log(`zh calibration with the stripped copies weighted ${strippedWeight}: ECE weibo2018 ${s.kinds['weibo2018']!.ece!.toFixed(4)}, ws100k ${s.kinds['ws100k']!.ece!.toFixed(4)}, stripped ${s.kinds['ws100k-stripped']!.ece!.toFixed(4)}`);
    return { calibration, cv: s };
  });
  const { calibration, cv } = candidates[leastWorstEce(candidates.map((c) => c.cv), ['weibo2018', 'ws100k', 'ws100k-stripped'])]!;
  o.log(`zh cross-validated (${o.folds} folds), calibrated: ${JSON.stringify(cv)}`);
  const all = weighted(config);
  const keep = all.map((e, i) => (e.weight > 0 ? i : -1)).filter((i) => i >= 0);
  const model = train(config)(keep.map((i) => all[i]!), keep.map((i) => feats[i]!));
  model.calibration = calibration;
  const lex = lexFor(config);
  if (lex) model.lexicon = lex;
  if (o.segmenter) model.segmenter = o.segmenter;
  if (Object.keys(featureSet(config)).length > 0) model.zhFeatures = featureSet(config);
  model.meta = { ...model.meta, config, folds: o.folds, cvSearch: search.tried.length };
  if (!o.textMixes?.length) return { model, cv, config };
  const main: MainOof[] = base.flatMap((e, i) => (e.kind === 'aug' || !oof[i] ? [] : [{
    id: e.id, kind: e.kind as MainOof['kind'], label: e.label, emoticons: feats[i]!.emoticons, margin: oof[i]![1]! - oof[i]![0]!,
  }]));
  const fusion = textFusion({
    ws, w18, main, folds: o.folds, seed: o.seed, featureSet: featureSet(config), ...(lex ? { lexicon: lex } : {}),
    mixes: o.textMixes, kindWeights, train: train(config), log: o.log,
    ...(o.textL2?.length ? { textTrainers: o.textL2.map((l2) => ({ name: `lbfgs l2 ${l2}`, train: fullBatch(l2, o.textNb ?? config['nb']!) })) } : {}), groupings: [['both', 'both'], ['both', 'main'], ['text', 'main']],
  });
  if (!fusion.textModel || !fusion.fusion) return { model, cv, config, fusion };
  // The blend is the calibration now: the per-group temperature fitted above is left out.
  delete model.calibration;
  model.textModel = fusion.textModel;
  model.textModel.meta = { ...model.textModel.meta, ...(fusion.best.trainer ? { trainer: fusion.best.trainer, nb: o.textNb ?? config['nb'] } : {}), mix: { strippedWs100k: fusion.best.mix[0], weibo2018: fusion.best.mix[1] }, textInGroups: fusion.best.groups };
  model.fusion = fusion.fusion;
  const kinds = Object.fromEntries(Object.entries(fusion.best.scores).map(([k, v]) => [k, { posts: v.posts, accuracy: v.accuracy, macroRecall: v.accuracy, ece: v.ece }]));
  return { model, cv: { kinds }, config, fusion };
}
