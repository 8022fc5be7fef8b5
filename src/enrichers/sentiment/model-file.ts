import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Calibration } from './calibration';
import type { Fusion } from './fusion';
import type { EnFeatureSet, SentimentLang, ZhFeatureSet } from './features';

export type SentimentLabel = 'negative' | 'neutral' | 'positive';

/**
 * A trained linear model over hashed features: `weights[bucket * classes.length + k] × weightScale`.
 * Training works on float weights; a model read from its file keeps the file's int16 quantisation
 * as it is (half the resident memory of floats, and the same logits: the file holds no more).
 */
export interface LinearModel {
  lang: SentimentLang;
  classes: SentimentLabel[];
  bucketsLog2: number;
  weights: Float32Array | Int16Array;
  /** Multiplies every weight (the int16 quantisation step); 1 when absent. */
  weightScale?: number;
  /** Added to the (calibrated) logits before the arg-max: decision thresholds chosen by cross-validation. */
  decisionBias: number[];
  /** zh models are binary; below this |score| the label is `neutral` (0: never). */
  neutralBand: number;
  /** How the weights were made (data, hyper-parameters, seed); informational. */
  meta: Record<string, unknown>;
  /** en: word hash → valence, for the lexicon-sum features. */
  lexicon?: Map<number, number>;
  /** n-gram features are scaled by n^-normPower; 0.5 when absent. */
  normPower?: number;
  /** zh: words from this segmenter are features too (jieba's default dictionary, HMM for unknown words). */
  segmenter?: 'jieba' | 'jieba-hmm';
  /** Maps the logits to calibrated probabilities; without it the raw softmax is reported. */
  calibration?: Calibration;
  /** zh: optional feature families the model was trained with. */
  zhFeatures?: ZhFeatureSet;
  /** en: optional feature families the model was trained with. */
  enFeatures?: EnFeatureSet;
  /**
   * zh: a second model over the same features less the emoticon codes (trained on the words
   * alone), blended with this one by `fusion`, which then replaces `calibration`.
   */
  textModel?: LinearModel;
  fusion?: Fusion;
}

/** On disk: sparse weights, int16-quantised, bucket indices delta-varint coded, raw-deflated, base64. */
export interface LinearModelFile {
  format: 'freshet-linear-sentiment/1';
  lang: SentimentLang;
  classes: SentimentLabel[];
  bucketsLog2: number;
  decisionBias: number[];
  neutralBand: number;
  scale: number;
  nonZeroBuckets: number;
  data: string;
  meta: Record<string, unknown>;
  normPower?: number;
  segmenter?: 'jieba' | 'jieba-hmm';
  /** base64 of Int32 word hashes followed by Int8 valences ×25. */
  lexicon?: string;
  calibration?: Calibration;
  zhFeatures?: ZhFeatureSet;
  enFeatures?: EnFeatureSet;
  textModel?: LinearModelFile;
  fusion?: Fusion;
}

function encodeLexicon(lex: Map<number, number>): string {
  const hashes = Int32Array.from(lex.keys());
  const vals = Int8Array.from([...lex.values()].map((v) => Math.round(v * 25)));
  return Buffer.concat([Buffer.from(hashes.buffer), Buffer.from(vals.buffer)]).toString('base64');
}

function decodeLexicon(b64: string): Map<number, number> {
  const raw = Buffer.from(b64, 'base64');
  const n = raw.length / 5;
  const out = new Map<number, number>();
  for (let i = 0; i < n; i++) out.set(raw.readInt32LE(i * 4), raw.readInt8(n * 4 + i) / 25);
  return out;
}

const QMAX = 32767;

export function encodeModel(m: LinearModel): LinearModelFile {
  const k = m.classes.length;
  const buckets = 1 << m.bucketsLog2;
  const ws = m.weightScale ?? 1;
  let maxAbs = 0;
  for (const w of m.weights) maxAbs = Math.max(maxAbs, Math.abs(w * ws));
  const scale = maxAbs > 0 ? maxAbs / QMAX : 1;
  const idx: number[] = [];
  const vals: number[] = [];
  for (let b = 0; b < buckets; b++) {
    let keep = false;
    for (let j = 0; j < k; j++) if (Math.round((m.weights[b * k + j]! * ws) / scale) !== 0) keep = true;
    if (!keep) continue;
    idx.push(b);
    for (let j = 0; j < k; j++) vals.push(Math.round((m.weights[b * k + j]! * ws) / scale));
  }
  const varints: number[] = [];
  let last = -1;
  for (const b of idx) {
    let d = b - last - 1;
    last = b;
    while (d >= 0x80) { varints.push((d & 0x7f) | 0x80); d >>>= 7; }
    varints.push(d);
  }
  const q = new Int16Array(vals);
  const head = new Uint32Array([varints.length]);
  const raw = Buffer.concat([Buffer.from(head.buffer), Buffer.from(varints), Buffer.from(q.buffer, q.byteOffset, q.byteLength)]);
  return {
    format: 'freshet-linear-sentiment/1', lang: m.lang, classes: m.classes, bucketsLog2: m.bucketsLog2,
    decisionBias: m.decisionBias, neutralBand: m.neutralBand, scale, nonZeroBuckets: idx.length,
    data: deflateRawSync(raw, { level: 9 }).toString('base64'), meta: m.meta,
    ...(m.lexicon ? { lexicon: encodeLexicon(m.lexicon) } : {}),
    ...(m.normPower !== undefined ? { normPower: m.normPower } : {}),
    ...(m.segmenter ? { segmenter: m.segmenter } : {}),
    ...(m.calibration ? { calibration: m.calibration } : {}),
    ...(m.zhFeatures ? { zhFeatures: m.zhFeatures } : {}),
    ...(m.enFeatures ? { enFeatures: m.enFeatures } : {}),
    ...(m.textModel && m.fusion ? { textModel: encodeModel(m.textModel), fusion: m.fusion } : {}),
  };
}

export function decodeModel(f: LinearModelFile): LinearModel {
  if (f.format !== 'freshet-linear-sentiment/1') throw new Error(`unknown sentiment model format ${String(f.format)}`);
  const raw = inflateRawSync(Buffer.from(f.data, 'base64'));
  const k = f.classes.length;
  const nVarint = raw.readUInt32LE(0);
  const weights = new Int16Array((1 << f.bucketsLog2) * k);
  // Copy before viewing as Int16: the inflated buffer's offset need not be 2-aligned.
  const qBytes = Uint8Array.prototype.slice.call(raw, 4 + nVarint);
  const q = new Int16Array(qBytes.buffer, qBytes.byteOffset, qBytes.byteLength / 2);
  let pos = 4;
  const end = 4 + nVarint;
  let b = -1;
  let qi = 0;
  while (pos < end) {
    let d = 0;
    let shift = 0;
    let byte: number;
    do { byte = raw[pos++]!; d |= (byte & 0x7f) << shift; shift += 7; } while (byte & 0x80);
    b += d + 1;
    for (let j = 0; j < k; j++) weights[b * k + j] = q[qi++]!;
  }
  if (qi !== q.length || qi !== f.nonZeroBuckets * k) throw new Error('corrupt sentiment model file');
  return { lang: f.lang, classes: f.classes, bucketsLog2: f.bucketsLog2, weights, weightScale: f.scale, decisionBias: f.decisionBias, neutralBand: f.neutralBand, meta: f.meta,
    ...(f.lexicon ? { lexicon: decodeLexicon(f.lexicon) } : {}),
    ...(f.normPower !== undefined ? { normPower: f.normPower } : {}),
    ...(f.segmenter ? { segmenter: f.segmenter } : {}),
    ...(f.calibration ? { calibration: f.calibration } : {}),
    ...(f.zhFeatures ? { zhFeatures: f.zhFeatures } : {}),
    ...(f.enFeatures ? { enFeatures: f.enFeatures } : {}),
    ...(f.textModel && f.fusion ? { textModel: decodeModel(f.textModel), fusion: f.fusion } : {}) };
}
