const UNITS: Record<string, number> = { 万: 1e4, 亿: 1e8, w: 1e4, W: 1e4, k: 1e3, K: 1e3 };

/** A display count read back: its value and whether the site printed only a floor (`"100万+"`). */
export interface CountReading {
  value: number;
  /** True for `N+` forms: the real count is at least `value`. */
  atLeast: boolean;
}

const COUNT = /^\s*([\d,]+(?:\.\d+)?)\s*([万亿wWkK])?\s*(\+)?\s*(?:次播放|次观看|人看过)?\s*$/;

/**
 * Counts come as ints or as display strings: `"43.4万"`, `"100万+"`, `"1.2亿"`, `"1,234"`, and on
 * videos `"89万次播放"`. Undefined for anything else rather than a guess.
 */
export function readCount(value: unknown): CountReading | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? { value: Math.round(value), atLeast: false } : undefined;
  if (typeof value !== 'string') return undefined;
  const m = COUNT.exec(value);
  if (!m) return undefined;
  const n = Number(m[1]!.replace(/,/g, ''));
  return { value: Math.round(n * (m[2] ? UNITS[m[2]]! : 1)), atLeast: m[3] === '+' };
}

/** The value of `readCount` alone (a floor for `N+` forms: callers that keep the "at least" use readCount). */
export function parseCount(value: unknown): number | undefined {
  return readCount(value)?.value;
}
