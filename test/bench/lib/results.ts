import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';

/** The result format of shared/specs/bench-results.md; every benchmark writes through here. */
export interface ResultRow {
  system: string;
  variant: string;
  metric: string;
  value: number | null;
}

export type GoalOp = '>=' | '<=' | '>' | '<' | '==';

export interface GoalRow {
  name: string;
  op: GoalOp;
  target: number;
  value: number | null;
  met: boolean;
}

export interface BenchReport {
  benchmark: string;
  date: string;
  commit: string;
  machine: { cpus: number; cpu_model: string; mem_gib: number; node: string; note?: string };
  params: Record<string, unknown>;
  results: ResultRow[];
  goals: GoalRow[];
}

export function goal(name: string, op: GoalOp, target: number, value: number | null | undefined): GoalRow {
  const v = value === undefined || value === null || !Number.isFinite(value) ? null : value;
  const met = v !== null && (
    op === '>=' ? v >= target : op === '<=' ? v <= target : op === '>' ? v > target : op === '<' ? v < target : v === target);
  return { name, op, target, value: v, met };
}

/** The project root, whether this runs from test/bench or compiled under .state/build. */
export function projectRoot(from = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) || dir.includes(`${'.state'}`)) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no project root above ${from}`);
    dir = up;
  }
  return dir;
}

/**
 * `shared/data/<name>`: beside the project root in the main checkout (`../shared`), or higher up
 * for a worktree nested deeper (`/work/wt/<name>` finds `/work/shared`).
 */
export function sharedDataDir(name: string, from = projectRoot()): string {
  for (let dir = dirname(from); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'data', name);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return join(dirname(from), 'shared', 'data', name);
  }
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export function machine(note?: string): BenchReport['machine'] {
  return {
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model ?? 'unknown',
    mem_gib: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    ...(note ? { note } : {}),
  };
}

/** Writes test/bench/results/<benchmark>.json and prints it; returns the report. */
export function writeReport(
  benchmark: string,
  params: Record<string, unknown>,
  results: ResultRow[],
  goals: GoalRow[],
  opts: { note?: string; dir?: string } = {},
): BenchReport {
  const report: BenchReport = {
    benchmark,
    date: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    commit: gitCommit(),
    machine: machine(opts.note),
    params,
    results,
    goals,
  };
  const dir = opts.dir ?? join(projectRoot(), 'test', 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const json = JSON.stringify(report, null, 2);
  writeFileSync(join(dir, `${benchmark}.json`), `${json}\n`);
  console.log(json);
  return report;
}
