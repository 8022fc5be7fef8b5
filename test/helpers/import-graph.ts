import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/**
 * The layering rule of src/ (the same rule as ../shared/tools/arch-check.py, kept here so the
 * project checks itself): core < kinds < pipeline < runner < cli, simsite apart with only core
 * below it. Layering counts type imports too; cycles count value imports only (a type import
 * is erased and cannot make a module load before its dependency).
 */
const LAYER: Record<string, number> = { core: 0, pipeline: 2, runner: 3, cli: 4 };
const KIND = 1;

const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm;

export interface ImportReport {
  /** Each cycle as the sorted files of one strongly connected component. */
  cycles: string[][];
  /** `from -> to` for every import that runs back up the layers. */
  back: string[];
  files: number;
}

function layerOf(path: string): { layer: number; top: string } {
  const parts = path.split('/');
  const top = parts[0] === 'src' && parts.length > 2 ? parts[1]! : '';
  return { layer: LAYER[top] ?? KIND, top };
}

function typeOnly(statement: string, typeKeyword: boolean): boolean {
  if (typeKeyword) return true;
  const named = /^\s*import\s*\{([^}]*)\}/.exec(statement);
  if (!named) return false;
  const parts = named[1]!.split(',').map((p) => p.trim()).filter((p) => p !== '');
  return parts.length > 0 && parts.every((p) => p.startsWith('type '));
}

/** `sources`: path (relative to the root, `src/...`) → file text. */
export function checkImports(sources: ReadonlyMap<string, string>): ImportReport {
  const resolve = (from: string, spec: string): string | undefined => {
    const base = normalize(join(dirname(from), spec));
    return [`${base}.ts`, join(base, 'index.ts'), base].find((c) => sources.has(c));
  };
  const graph = new Map<string, Set<string>>();
  const back: string[] = [];
  for (const [file, text] of sources) {
    const edges = new Set<string>();
    graph.set(file, edges);
    for (const m of text.matchAll(IMPORT)) {
      const target = resolve(file, m[3]!);
      if (!target) continue;
      if (!typeOnly(m[0], m[2] !== undefined)) edges.add(target);
      const f = layerOf(file);
      const t = layerOf(target);
      const crossesSimsite = (t.top === 'simsite') !== (f.top === 'simsite') && t.top !== 'core' && f.top !== 'cli';
      if (f.top !== t.top && (t.layer > f.layer || crossesSimsite)) back.push(`${file} -> ${target}`);
    }
  }
  return { cycles: stronglyConnected(graph).filter((c) => c.length > 1).map((c) => c.sort()), back, files: sources.size };
}

/** Tarjan's algorithm, iterative (no recursion limit on long import chains). */
function stronglyConnected(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { v: string; it: Iterator<string> }[] = [];
    const enter = (v: string): void => {
      index.set(v, next);
      low.set(v, next);
      next += 1;
      stack.push(v);
      onStack.add(v);
      work.push({ v, it: (graph.get(v) ?? new Set<string>()).values() });
    };
    enter(root);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const step = top.it.next();
      if (!step.done) {
        const w = step.value;
        if (!index.has(w)) enter(w);
        else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.v, Math.min(low.get(parent.v)!, low.get(top.v)!));
      if (low.get(top.v) === index.get(top.v)) {
        const component: string[] = [];
        for (;;) {
          const w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
          if (w === top.v) break;
        }
        out.push(component);
      }
    }
  }
  return out;
}

/** Every `.ts` file under `root/src` (not `.d.ts`), keyed by its path relative to `root`. */
export function readSources(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.set(relative(root, p), readFileSync(p, 'utf8'));
    }
  };
  walk(join(root, 'src'));
  return out;
}
