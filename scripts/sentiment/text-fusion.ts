import type { Fusion } from '../../src/enrichers/sentiment/fusion';
import type { ZhFeatureSet } from '../../src/enrichers/sentiment/features';
import type { LinearModel } from '../../src/enrichers/sentiment/model-file';
import { foldOf, type CvExample } from './cv';
import type { LabelledPost } from './data';
import { BINARY, crossFittedScores, fitFusion, textOofMargins, type BlendColumns, type FusionKindScores, type FusionPoint } from './fusion';
import { featurize, type Example, type Featurized } from './sgd';

/** A scored out-of-fold example of the main zh model. */
export interface MainOof {
  id: string;
  kind: 'ws100k' | 'ws100k-stripped' | 'weibo2018';
  label: string;
  /** Emoticon codes the main model read (0 on the stripped run): the fusion group. */
  emoticons: number;
  /** Positive − negative logit. */
  margin: number;
}

export interface TextFusionOptions {
  ws: LabelledPost[];
  w18: LabelledPost[];
  main: MainOof[];
  folds: number;
  seed: number;
  lexicon?: ReadonlyMap<number, number>;
  featureSet: ZhFeatureSet;
  /** Candidate training mixes of the text model: [weight of the stripped ws100k posts, of the weibo2018 posts]. */
  mixes: [number, number][];
  /** The objective's weight of each scored file (the main model's search objective). */
  kindWeights: Record<string, number>;
  train: (ex: Example[], f: Featurized[]) => LinearModel;
  /** Candidate trainers of the text model (e.g. full-batch fits at several L2 strengths), crossed with the mixes; `train` alone when absent. */
  textTrainers?: TextTrainer[];
  /**
   * Candidates for the margins each group's blend reads (group 0: no emoticon codes, 1: codes);
   * both in both groups when absent. Chosen with the mix by the same cross-validation.
   */
  groupings?: BlendColumns[][];
  log: (msg: string) => void;
  /** Cross-validation only: no text model is trained on all posts (a study, not a training run). */
  cvOnly?: boolean;
}

export interface TextTrainer {
  name: string;
  train: (ex: Example[], f: Featurized[]) => LinearModel;
}

export interface TextFusionResult {
  /** Cross-fitted scores of the blend of the main margin alone (per group: slope and bias), the control. */
  control: Record<string, FusionKindScores>;
  best: TextFusionTrial;
  controlObjective: number;
  tried: TextFusionTrial[];
  /** Set only when the best mix beats the control: the text model trained on all posts and the blend fitted on all margins. */
  textModel?: LinearModel;
  fusion?: Fusion;
}

export interface TextFusionTrial {
  mix: [number, number];
  /** The text model's trainer (`TextTrainer.name`; absent: the main model's configuration). */
  trainer?: string;
  groups: BlendColumns[];
  scores: Record<string, FusionKindScores>;
  objective: number;
}

/**
 * The text-only zh model and its blend with the main model: for each candidate mix, the text
 * model's out-of-fold margins on the main model's folds, then the per-group blend scored
 * cross-fitted; the mix with the best objective ships only if it beats the control (the blend of
 * the main margin alone, i.e. the main model re-calibrated per group on the same terms).
 */
export function textFusion(o: TextFusionOptions): TextFusionResult {
  const posts: CvExample[] = [
    ...o.ws.map((p) => ({ id: p.id, kind: 'ws100k', text: p.text, label: p.label, weight: 1, stripEmoticons: true })),
    ...o.w18.map((p) => ({ id: p.id, kind: 'weibo2018', text: p.text, label: p.label, weight: 1, stripEmoticons: true })),
  ];
  const at = new Map(posts.map((p, i) => [p.id, i]));
  o.log(`zh text model: featurizing ${posts.length} posts, emoticon codes left out`);
  const feats = featurize('zh', posts, undefined, o.lexicon, o.featureSet);
  const counts = new Map<string, number>();
  for (const m of o.main) counts.set(m.kind, (counts.get(m.kind) ?? 0) + 1);
  const pointsOf = (text: Float64Array): FusionPoint[] => o.main.map((m) => ({
    main: m.margin, text: text[at.get(m.id)!]!, group: m.emoticons > 0 ? 1 : 0, fold: foldOf(m.id, o.folds, o.seed),
    kind: m.kind, y: m.label === 'positive' ? 1 : 0, weight: (o.kindWeights[m.kind] ?? 0) / counts.get(m.kind)!,
  }));
  const objective = (s: Record<string, FusionKindScores>): number => {
    let sum = 0;
    let w = 0;
    for (const [k, kw] of Object.entries(o.kindWeights)) { sum += kw * (s[k]?.accuracy ?? 0); w += kw; }
    return sum / w;
  };
  const fmt = (s: Record<string, FusionKindScores>): string => Object.entries(s).map(([k, v]) => `${k} ${v.accuracy.toFixed(4)} (ece ${v.ece.toFixed(4)})`).join(', ');
  const zero = new Float64Array(posts.length);
  const control = crossFittedScores(pointsOf(zero), o.folds, 2, 'main');
  const controlObjective = objective(control);
  o.log(`zh fusion control (main margin alone, blended per group): ${fmt(control)}; objective ${controlObjective.toFixed(4)}`);
  const tried: TextFusionResult['tried'] = [];
  const margins = new Map<string, Float64Array>();
  const trainers = o.textTrainers ?? [{ name: '', train: o.train }];
  for (const trainer of trainers) for (const mix of o.mixes) {
    const weightOf = (e: CvExample): number => (e.kind === 'ws100k' ? mix[0] : mix[1]);
    const text = textOofMargins(posts, feats, o.folds, o.seed, weightOf, trainer.train);
    margins.set(JSON.stringify([trainer.name, mix]), text);
    const pts = pointsOf(text);
    // Diagnostics only (a post's file is unknown at run time): the text model alone, and a blend per file.
    const kinds = Object.keys(o.kindWeights);
    const alone = kinds.map((k) => { const q = pts.filter((p) => p.kind === k); return `${k} ${(q.filter((p) => (p.text > 0 ? 1 : 0) === p.y).length / q.length).toFixed(4)}`; });
    const perFile = crossFittedScores(pts.map((p) => ({ ...p, group: kinds.indexOf(p.kind) })), o.folds, kinds.length, 'both');
    o.log(`  text model ${trainer.name} alone: ${alone.join(', ')}; blend per file (not realisable): ${fmt(perFile)}`);
    for (const groups of o.groupings ?? [['both', 'both'] as BlendColumns[]]) {
      const scores = crossFittedScores(pts, o.folds, 2, groups);
      tried.push({ mix, ...(trainer.name ? { trainer: trainer.name } : {}), groups, scores, objective: objective(scores) });
      o.log(`zh fusion, text model ${trainer.name} mix ${JSON.stringify(mix)}, text in groups ${JSON.stringify(groups)}: ${fmt(scores)}; objective ${objective(scores).toFixed(4)}`);
    }
  }
  const best = tried.reduce((a, b) => (b.objective > a.objective + 1e-9 ? b : a));
  const result: TextFusionResult = { control, best, controlObjective, tried };
  if (o.cvOnly) return result;
  if (best.objective <= controlObjective) {
    o.log('zh fusion: no text-model mix beats the control; not shipped');
    return result;
  }
  const weightOf = (e: CvExample): number => (e.kind === 'ws100k' ? best.mix[0] : best.mix[1]);
  const keep = posts.map((_, i) => i).filter((i) => weightOf(posts[i]!) > 0);
  const train = trainers.find((t) => t.name === (best.trainer ?? ''))!.train;
  result.textModel = train(keep.map((i) => ({ ...posts[i]!, weight: weightOf(posts[i]!) })), keep.map((i) => feats[i]!));
  result.textModel.classes = BINARY;
  result.fusion = fitFusion(pointsOf(margins.get(JSON.stringify([best.trainer ?? '', best.mix]))!), 2, best.groups);
  o.log(`zh fusion shipped: text model ${best.trainer ?? ''} mix ${JSON.stringify(best.mix)}, blend ${JSON.stringify(result.fusion)}`);
  return result;
}
