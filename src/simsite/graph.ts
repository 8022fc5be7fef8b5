import { logNormalSample, streamRng } from './random';
import type { SimUser } from './users';

/**
 * The follow graph in compressed form: for user u, `followees` holds the users u follows and
 * `fans` the users following u (newest first), each as a slice [offsets[u], offsets[u+1]).
 */
export interface FollowGraph {
  followeeOffsets: Uint32Array;
  followees: Uint32Array;
  fanOffsets: Uint32Array;
  fans: Uint32Array;
}

export interface GraphOptions {
  seed: number;
  medianFollowees: number;
}

/** Preferential by attractiveness: fan counts inherit the Pareto tail of the weights (a power law). */
export function buildFollowGraph(users: readonly SimUser[], opts: GraphOptions): FollowGraph {
  const n = users.length;
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += users[i]!.attractiveness;
    cumulative[i] = total;
  }
  const pickTarget = (r: number): number => {
    const x = r * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! <= x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const lists: Uint32Array[] = [];
  let edges = 0;
  for (let u = 0; u < n; u++) {
    const rng = streamRng(opts.seed, 0x0f01, u);
    const user = users[u]!;
    const wanted = user.zombie
      ? Math.floor(rng.next() * 4)
      : Math.max(1, Math.round(logNormalSample(rng, opts.medianFollowees, 0.9)));
    const k = Math.min(wanted, n - 1);
    const chosen = new Set<number>();
    // Bounded attempts: a tiny world may not have k distinct popular targets.
    for (let attempt = 0; chosen.size < k && attempt < k * 8; attempt++) {
      const t = pickTarget(rng.next());
      if (t !== u) chosen.add(t);
    }
    const list = Uint32Array.from(chosen);
    lists.push(list);
    edges += list.length;
  }
  const followeeOffsets = new Uint32Array(n + 1);
  const followees = new Uint32Array(edges);
  const fanCounts = new Uint32Array(n);
  let pos = 0;
  for (let u = 0; u < n; u++) {
    followeeOffsets[u] = pos;
    const list = lists[u]!;
    followees.set(list, pos);
    pos += list.length;
    for (const t of list) fanCounts[t]!++;
  }
  followeeOffsets[n] = pos;
  const fanOffsets = new Uint32Array(n + 1);
  let acc = 0;
  for (let u = 0; u < n; u++) {
    fanOffsets[u] = acc;
    acc += fanCounts[u]!;
  }
  fanOffsets[n] = acc;
  const fill = new Uint32Array(n);
  const fans = new Uint32Array(edges);
  // Iterating followers from the highest index down lists later-registered (newer) fans first.
  for (let u = n - 1; u >= 0; u--) {
    for (let i = followeeOffsets[u]!; i < followeeOffsets[u + 1]!; i++) {
      const t = followees[i]!;
      fans[fanOffsets[t]! + fill[t]!] = u;
      fill[t]!++;
    }
  }
  return { followeeOffsets, followees, fanOffsets, fans };
}

export function followeesOf(g: FollowGraph, u: number): Uint32Array {
  return g.followees.subarray(g.followeeOffsets[u], g.followeeOffsets[u + 1]);
}

export function fansOf(g: FollowGraph, u: number): Uint32Array {
  return g.fans.subarray(g.fanOffsets[u], g.fanOffsets[u + 1]);
}
