import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The shape of a JSON value: every value replaced by its type, arrays by the union of their items'
 * shapes. Golden files hold shapes, so they pin field names and types without freezing every value.
 */
export function shapeOf(v: unknown): unknown {
  if (v === null) return 'null';
  if (Array.isArray(v)) {
    if (v.length === 0) return [];
    return [v.map(shapeOf).reduce(mergeShapes)];
  }
  if (typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = shapeOf(x);
    return sortKeys(o);
  }
  return typeof v;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Union of two shapes: objects merge key by key, differing leaves become "a|b" (e.g. "number|string"). */
function mergeShapes(a: unknown, b: unknown): unknown {
  if (JSON.stringify(a) === JSON.stringify(b)) return a;
  if (isRecord(a) && isRecord(b)) {
    const o: Record<string, unknown> = { ...a };
    for (const [k, x] of Object.entries(b)) o[k] = k in o ? mergeShapes(o[k], x) : x;
    return sortKeys(o);
  }
  // null next to an object keeps the object's fields and marks it nullable (a deleted original's user).
  if (a === 'null' && isRecord(b)) return sortKeys({ ...b, '(nullable)': true });
  if (b === 'null' && isRecord(a)) return sortKeys({ ...a, '(nullable)': true });
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length === 0) return b;
    if (b.length === 0) return a;
    return [mergeShapes(a[0], b[0])];
  }
  const name = (x: unknown): string[] => (typeof x === 'string' ? x.split('|') : Array.isArray(x) ? ['array'] : ['object']);
  return [...new Set([...name(a), ...name(b)])].sort().join('|');
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const GOLDEN_DIR = join(__dirname, 'golden');

/** Compares with test/unit/simsite/golden/<name>.json; UPDATE_GOLDEN=1 rewrites it. A missing file fails. */
export function expectGolden(name: string, value: unknown): void {
  const file = join(GOLDEN_DIR, `${name}.json`);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(GOLDEN_DIR, { recursive: true });
    writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  }
  if (!existsSync(file)) throw new Error(`golden file ${name}.json is missing (run with UPDATE_GOLDEN=1 once and review it)`);
  expect(value).toEqual(JSON.parse(readFileSync(file, 'utf8')));
}

export async function getJson(url: string, client = 'test'): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(url, { headers: { 'x-client-id': client }, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: res.headers };
}
