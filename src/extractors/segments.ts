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
