import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { recordEngineFeatures } from './engine';

/**
 * Integration tests run against the real services: start them, or reuse running ones; then probe
 * what the search node can do, so tests needing a feature it lacks skip with its reason.
 */
export default async function globalSetup(): Promise<void> {
  execFileSync('bash', [join(__dirname, '..', '..', 'scripts', 'services.sh'), 'up'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const f = await recordEngineFeatures();
  const lacks = [
    ...(f.cjk.ok ? [] : [`cjk (text uses ${f.textAnalyzer})`]),
    ...(f.percolator.ok ? [] : ['percolator']),
    ...(f.deleteByQuery.ok ? [] : ['delete-by-query']),
    ...(f.painless.ok ? [] : ['painless']),
  ];
  process.stderr.write(`[test] search node ${f.node} at ${f.url}${lacks.length ? `, lacking ${lacks.join(', ')}` : ', all features'}\n`);
}
