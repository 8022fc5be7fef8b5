import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * A thread running `<dir>/<base>.js` (compiled) or, from TypeScript sources (the test runner),
 * `<dir>/<base>.ts` compiled by @swc/core, a dev dependency, as the test runner does.
 *
 * A thread given a young-generation cap starts with its young generation at that cap. V8 starts
 * it at 1 MiB semi-spaces and grows it only when enough survives scavenges; whether a page thread
 * ever grew it decided which of two speeds the HTML throughput bench ran at (~780 pages/s at 1.8
 * CPU s per 1,000 pages, or ~1,050 at 1.3, from one launch to the next). Started at its cap, three
 * runs in a row ran fast (1,026 / 988 / 1,015 pages/s) at the same peak RSS (291-301 MiB). Worker
 * options cannot carry V8 flags, so the flag is set in the process before the thread's heap is
 * made; V8 reads it only when it sizes a new heap (and clamps it to the cap), so the threads
 * already running and the main thread keep their sizes, and the flag stays for later threads.
 */
export function spawnThread(dir: string, base: string, workerData: unknown, resourceLimits?: ResourceLimits): Worker {
  const youngMb = resourceLimits?.maxYoungGenerationSizeMb;
  if (youngMb !== undefined) setFlagsFromString(`--min-semi-space-size=${Math.ceil(youngMb)}`);
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
