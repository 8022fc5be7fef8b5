import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * A thread running `<dir>/<base>.js` (compiled) or, from TypeScript sources (the test runner),
 * `<dir>/<base>.ts` compiled by @swc/core, a dev dependency, as the test runner does.
 */
export function spawnThread(dir: string, base: string, workerData: unknown, resourceLimits?: ResourceLimits): Worker {
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
