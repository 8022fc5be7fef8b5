import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * A thread running `<dir>/<base>.js` (compiled) or, from TypeScript sources (the test runner),
 * `<dir>/<base>.ts` compiled by @swc/core, a dev dependency, as the test runner does.
 *
 * `v8Flags` are set in this process just before the thread is made: worker options cannot carry
 * V8 flags, and flags that size a heap are read only when a heap is made. They stay set for the
 * whole process (V8 flags are global; the main thread's heap keeps its size, but a flag read while
 * collecting applies to every thread from then on). A thread given a young-generation cap also
 * starts with its young generation at that cap (V8 starts it at 1 MiB semi-spaces and grows it
 * only when enough survives its scavenges).
 */
export function spawnThread(dir: string, base: string, workerData: unknown, resourceLimits?: ResourceLimits, v8Flags: readonly string[] = []): Worker {
  const youngMb = resourceLimits?.maxYoungGenerationSizeMb;
  for (const flag of [...(youngMb === undefined ? [] : [`--min-semi-space-size=${Math.ceil(youngMb)}`]), ...v8Flags]) setFlagsFromString(flag);
  const js = join(dir, `${base}.js`);
  const options = { workerData, ...(resourceLimits ? { resourceLimits } : {}) };
  if (existsSync(js)) return new Worker(js, options);
  const swc = require.resolve('@swc/core');
  const entry = join(dir, `${base}.ts`);
  const bootstrap = `
const { readFileSync } = require('node:fs');
const swc = require(${JSON.stringify(swc)});
require.extensions['.ts'] = (m, filename) => m._compile(swc.transformSync(readFileSync(filename, 'utf8'), { filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }).code, filename);
require(${JSON.stringify(entry)});`;
  return new Worker(bootstrap, { ...options, eval: true });
}
