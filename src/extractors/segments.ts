/** A contiguous run of lines [start, end] (inclusive) and the sum of its values. */
export interface Segment {
  start: number;
  end: number;
  sum: number;
}

/** Maximum-sum contiguous subarray (Kadane) of values[from..to]. */
export function maxSumSegment(values: number[], from = 0, to = values.length - 1): Segment | undefined {
  let best: Segment | undefined;
  let sum = 0;
  let start = from;
  for (let i = from; i <= to; i++) {
    if (sum <= 0) {
      sum = 0;
      start = i;
    }
    sum += values[i]!;
    if (sum > 0 && (!best || sum > best.sum)) best = { start, end: i, sum };
  }
  return best;
}

/**
 * Several disjoint segments, best first: the best one, then recursively the best of what lies
 * left and right of it, keeping those worth at least `minFraction` of the best (forum threads
 * with furniture between posts yield one segment per run of posts).
 */
export function topSegments(values: number[], minFraction: number, maxCount = 50): Segment[] {
  const first = maxSumSegment(values);
  if (!first) return [];
  const out: Segment[] = [first];
  const queue: Array<[number, number]> = [[0, first.start - 1], [first.end + 1, values.length - 1]];
  while (queue.length && out.length < maxCount) {
    const [a, b] = queue.shift()!;
    if (a > b) continue;
    const s = maxSumSegment(values, a, b);
    if (!s || s.sum < minFraction * first.sum) continue;
    out.push(s);
    queue.push([a, s.start - 1], [s.end + 1, b]);
  }
  return out.sort((x, y) => x.start - y.start);
}

/** Minimum-sum contiguous run of values[from..to] (the deepest dip). */
function minSumRun(values: number[], from: number, to: number): Segment | undefined {
  const neg = values.map((v) => -v);
  const s = maxSumSegment(neg, from, to);
  return s ? { start: s.start, end: s.end, sum: -s.sum } : undefined;
}

/**
 * Splits a segment wherever it crosses a dip deeper than `maxDip` (a tag list, a "more stories"
 * header): Kadane happily bridges furniture when more text follows, but what follows a deep
 * dip is a different block of the page and must compete on its own.
 */
export function splitAtDips(values: number[], seg: Segment, maxDip: number): Segment[] {
  const dip = minSumRun(values, seg.start, seg.end);
  if (!dip || dip.sum >= -maxDip) return [seg];
  const parts: Segment[] = [];
  for (const [a, b] of [[seg.start, dip.start - 1], [dip.end + 1, seg.end]] as const) {
    const best = a <= b ? maxSumSegment(values, a, b) : undefined;
    if (best) parts.push(...splitAtDips(values, best, maxDip));
  }
  return parts;
}
