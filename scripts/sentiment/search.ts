/**
 * Coordinate search over a hyper-parameter grid: from the first value of every parameter, each
 * parameter in turn takes the value with the best cross-validated score while the others stay put;
 * `passes` rounds. Far cheaper than the full product, deterministic, and every configuration it
 * scores is logged, so the choice can be read back.
 */
export type Grid = Record<string, number[]>;
export type Config = Record<string, number>;

export function coordinateSearch(
  grid: Grid, score: (c: Config) => number, log: (msg: string) => void, passes = 2,
): { config: Config; score: number; tried: { config: Config; score: number }[] } {
  const keys = Object.keys(grid);
  const config: Config = Object.fromEntries(keys.map((k) => [k, grid[k]![0]!]));
  const cache = new Map<string, number>();
  const tried: { config: Config; score: number }[] = [];
  const eval1 = (c: Config): number => {
    const key = JSON.stringify(c);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const s = score(c);
    cache.set(key, s);
    tried.push({ config: { ...c }, score: s });
    log(`cv ${key}: ${s.toFixed(4)}`);
    return s;
  };
  let best = eval1(config);
  for (let pass = 0; pass < passes; pass++) {
    let moved = false;
    for (const k of keys) {
      for (const v of grid[k]!) {
        if (v === config[k]) continue;
        const s = eval1({ ...config, [k]: v });
        if (s > best + 1e-9) {
          best = s;
          config[k] = v;
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  return { config, score: best, tried };
}
