/**
 * A map from the confidence of the predicted label to the share of such predictions that were
 * right, fitted on cross-validated predictions (top-label calibration, after the class-score
 * calibration). `x` rises; `y` is the accuracy at `x` (made non-decreasing).
 */
export interface TopLabelMap {
  x: number[];
  y: number[];
  /** `linear`: interpolate between knots; `step`: the knot's bin value (histogram binning). */
  kind: 'linear' | 'step';
}

/** Equal-mass bins of the confidences; each knot at its bin's weighted mean confidence. */
export function fitTopLabelMap(conf: number[], correct: boolean[], weights: number[], bins: number, kind: 'linear' | 'step'): TopLabelMap {
  const order = conf.map((_, i) => i).sort((a, b) => conf[a]! - conf[b]!);
  const x: number[] = [];
  const y: number[] = [];
  const hi: number[] = [];
  for (let b = 0; b < bins; b++) {
    const from = Math.floor((b * order.length) / bins);
    const to = Math.floor(((b + 1) * order.length) / bins);
    let w = 0;
    let c = 0;
    let h = 0;
    for (let k = from; k < to; k++) {
      const i = order[k]!;
      w += weights[i]!;
      c += weights[i]! * conf[i]!;
      if (correct[i]) h += weights[i]!;
    }
    if (w === 0) continue;
    x.push(c / w);
    y.push(h / w);
    hi.push(conf[order[to - 1]!]!);
  }
  // Pool adjacent violators: the map must not rank a surer prediction below a less sure one.
  const blocks: { x: number; y: number; w: number; hi: number; n: number }[] = [];
  for (let b = 0; b < x.length; b++) {
    blocks.push({ x: x[b]!, y: y[b]!, w: 1, hi: hi[b]!, n: 1 });
    while (blocks.length > 1 && blocks[blocks.length - 2]!.y > blocks[blocks.length - 1]!.y) {
      const q = blocks.pop()!;
      const p = blocks.pop()!;
      blocks.push({ x: (p.x * p.w + q.x * q.w) / (p.w + q.w), y: (p.y * p.w + q.y * q.w) / (p.w + q.w), w: p.w + q.w, hi: q.hi, n: p.n + q.n });
    }
  }
  return kind === 'step'
    ? { kind, x: blocks.map((b) => b.hi), y: blocks.map((b) => b.y) }
    : { kind, x: blocks.map((b) => b.x), y: blocks.map((b) => b.y) };
}

export function mapConfidence(m: TopLabelMap, c: number): number {
  const { x, y } = m;
  if (x.length === 0) return c;
  if (m.kind === 'step') {
    for (let i = 0; i < x.length; i++) if (c <= x[i]!) return y[i]!;
    return y[y.length - 1]!;
  }
  if (c <= x[0]!) return y[0]!;
  for (let i = 1; i < x.length; i++) {
    if (c <= x[i]!) {
      const t = (c - x[i - 1]!) / (x[i]! - x[i - 1]!);
      return y[i - 1]! + t * (y[i]! - y[i - 1]!);
    }
  }
  return y[y.length - 1]!;
}
