import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Availability } from '../../src/search/analyzer-plan';
import { connectSearch } from '../../src/search/client';
import { analyzerPlanFor, nodeLabel, probeFeature } from '../../src/search/features';
import { loadTemplates } from '../../src/search/templates';
import { testSettings } from './services';

const ROOT = join(__dirname, '..', '..');

/**
 * What the search node under test can do, probed once by the integration project's global setup
 * with freshet's own probes, so a test that needs a feature is skipped with the node's own reason
 * (never a blanket skip per engine).
 */
export interface EngineFeatures {
  url: string;
  /** e.g. `opensearch 2.19.1`, `elasticsearch 8.19.7`. */
  node: string;
  distribution: 'opensearch' | 'elasticsearch';
  /** The analyzer the text fields of mappings/ end up with (`cjk`, or its documented fallback). */
  textAnalyzer: string;
  cjk: Availability;
  percolator: Availability;
  deleteByQuery: Availability;
  painless: Availability;
}

function fileFor(url: string): string {
  return join(ROOT, '.state', 'engine-features', `${url.replace(/[^a-z0-9]+/gi, '_')}.json`);
}

/** Probes the node at FRESHET_ES_URL and records what it can do (global setup). */
export async function recordEngineFeatures(): Promise<EngineFeatures> {
  const url = testSettings().esUrl;
  const conn = await connectSearch({ url });
  try {
    const { plan } = await analyzerPlanFor(conn.client, loadTemplates(join(ROOT, 'mappings')).map((t) => t.body.template));
    const cjk = plan.fallbacks.find((f) => f.analyzer === 'cjk');
    const features: EngineFeatures = {
      url,
      node: await nodeLabel(conn.client),
      distribution: conn.info.distribution,
      textAnalyzer: cjk ? cjk.fallback : 'cjk',
      cjk: cjk ? { ok: false, reason: cjk.reason } : { ok: true },
      percolator: await probeFeature(conn.client, 'percolator'),
      deleteByQuery: await probeFeature(conn.client, 'delete_by_query'),
      painless: await probeFeature(conn.client, 'painless'),
    };
    mkdirSync(join(ROOT, '.state', 'engine-features'), { recursive: true });
    writeFileSync(fileFor(url), JSON.stringify(features, null, 2));
    return features;
  } finally {
    await conn.client.close();
  }
}

let cached: EngineFeatures | undefined;

/** The features global setup recorded for the node at FRESHET_ES_URL. */
export function engine(): EngineFeatures {
  if (cached) return cached;
  const url = testSettings().esUrl;
  try {
    cached = JSON.parse(readFileSync(fileFor(url), 'utf8')) as EngineFeatures;
  } catch (err) {
    throw new Error(`no recorded features for the search node at ${url}: integration tests run with the global setup (test/helpers/global-setup.ts): ${(err as Error).message}`);
  }
  return cached;
}

/**
 * `it` when every availability holds, else `it.skip` with the node's reason in the title, e.g.
 * `percolates … [skipped on elasticsearch 8.19.7: the percolator: unknown query [percolate]]`.
 */
export function itWhen(needs: Record<string, Availability>, name: string, fn: jest.ProvidesCallback, timeout?: number): void {
  const missing = Object.entries(needs).filter(([, a]) => !a.ok).map(([what, a]) => `${what}: ${a.reason ?? 'not available'}`);
  if (missing.length === 0) it(name, fn, timeout);
  else it.skip(`${name} [skipped on ${engine().node}: ${missing.join('; ')}]`, fn, timeout);
}
