import type { LinearModel } from '../../src/enrichers/sentiment/model-file';

/**
 * The mean of linear models over the same buckets and classes (e.g. the k fold models of a
 * cross-validation): one linear model, so it costs nothing more at inference, and its logits
 * are on the scale of the fold models' out-of-fold logits the calibration was fitted on.
 */
export function meanModel(models: LinearModel[]): LinearModel {
  if (models.length === 0) throw new Error('meanModel: no models');
  const first = models[0]!;
  const w = new Float32Array(first.weights.length);
  for (const m of models) {
    if (m.weights.length !== w.length || m.classes.join() !== first.classes.join()) throw new Error('meanModel: models differ in shape');
    const s = (m.weightScale ?? 1) / models.length;
    for (let i = 0; i < w.length; i++) w[i]! += m.weights[i]! * s;
  }
  const { weightScale: _scale, ...rest } = first;
  return { ...rest, weights: w, meta: { ...first.meta, meanOf: models.length } };
}
