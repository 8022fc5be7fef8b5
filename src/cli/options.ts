import { InvalidArgumentError } from 'commander';

export function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

export function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a positive number');
  return n;
}

/** `--var K=V` pairs over the environment: the values `${K}` in pipeline files resolve to. */
export function pipelineVars(pairs: string[] = []): Record<string, string | undefined> {
  const vars: Record<string, string | undefined> = { ...process.env };
  for (const pair of pairs) {
    const i = pair.indexOf('=');
    if (i <= 0) throw new Error(`--var expects NAME=VALUE, got "${pair}"`);
    vars[pair.slice(0, i)] = pair.slice(i + 1);
  }
  return vars;
}

/** A repeatable option's values, in the order given. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
