const UNITS: Record<string, number> = { 万: 1e4, 亿: 1e8, w: 1e4, W: 1e4, k: 1e3, K: 1e3 };

/**
 * Counts come as ints or as display strings: `"43.4万"`, `"100万+"`, `"1.2亿"`, `"1,234"`.
 * Returns undefined for anything else rather than guessing.
 */
export function parseCount(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const m = /^\s*([\d,]+(?:\.\d+)?)\s*([万亿wWkK])?\s*\+?\s*$/.exec(value);
  if (!m) return undefined;
  const n = Number(m[1]!.replace(/,/g, ''));
  return Math.round(n * (m[2] ? UNITS[m[2]]! : 1));
}
