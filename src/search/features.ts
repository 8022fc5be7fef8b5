import type { Client } from '@elastic/elasticsearch';
import { ErrorCodes, FreshetError } from '../core/errors';
import { ANALYZER_FALLBACKS, planAnalyzers, referencedAnalyzers, type AnalyzerPlan, type Availability } from './analyzer-plan';
import { describeNodeError, isResponseError, nodeErrorOf } from './node-errors';

/**
 * What freshet asks of a search node beyond indexing and search, probed by behaviour (module
 * names differ between distributions and packagings): each probe is a harmless request that
 * only a node with the feature answers with 2xx.
 */
export type NodeFeature = 'percolator' | 'delete_by_query' | 'painless';

export const FEATURE_NAMES: Readonly<Record<NodeFeature, string>> = {
  percolator: 'the percolator (module percolator)',
  delete_by_query: 'delete-by-query (module reindex)',
  painless: 'painless scripts (module lang-painless)',
};

/** Matches no index: the probes must never touch data. */
const NOTHING = 'freshet-feature-probe-0f3c9a-none-*';

/** A refusal (4xx) is the node saying "not here"; anything else (down, 5xx) is not an answer. */
async function availability(probe: () => Promise<unknown>): Promise<Availability> {
  try {
    await probe();
    return { ok: true };
  } catch (err) {
    if (isResponseError(err) && err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 && err.statusCode !== 429) {
      const said = nodeErrorOf(err.body);
      return { ok: false, reason: said === undefined ? `HTTP ${err.statusCode}` : describeNodeError(said) };
    }
    throw err;
  }
}

export function probeAnalyzer(client: Client, analyzer: string): Promise<Availability> {
  return availability(() => client.indices.analyze({ analyzer, text: 'x' }));
}

export function probeFeature(client: Client, feature: NodeFeature): Promise<Availability> {
  // A wildcard matching nothing is allowed by default (allow_no_indices), and keeps the node's answer free of parameters.
  const none = { index: NOTHING } as const;
  switch (feature) {
    case 'percolator':
      // The query is parsed before indices are resolved: a node without the module says `unknown query [percolate]`.
      return availability(() => client.search({ ...none, size: 0, query: { percolate: { field: 'alert_query', document: {} } } }));
    case 'delete_by_query':
      return availability(() => client.deleteByQuery({ ...none, query: { match_none: {} } }));
    case 'painless':
      // Scripted updates (versions, monitored posts) compile on the shard, where a probe matching no
      // index never goes; the painless execute API belongs to the module and touches no data.
      return availability(() => client.scriptsPainlessExecute({ script: { source: '1' } }));
  }
}

/** `opensearch 3.8.0`, `elasticsearch 8.19.7`: how refusals and warnings name the node. */
export async function nodeLabel(client: Client): Promise<string> {
  try {
    const info = await client.info();
    const v = info.version as { number?: string; distribution?: string };
    return `${v.distribution ?? 'elasticsearch'} ${v.number ?? '?'}`;
  } catch {
    return 'version unknown';
  }
}

/**
 * Refuses `what` (e.g. "alerts") in one line when the node lacks any of `features`, naming each
 * missing feature with the node's own reason.
 */
export async function requireFeatures(client: Client, features: readonly NodeFeature[], what: string): Promise<void> {
  const missing: string[] = [];
  for (const f of features) {
    const a = await probeFeature(client, f);
    if (!a.ok) missing.push(`${FEATURE_NAMES[f]}: ${a.reason ?? 'not available'}`);
  }
  if (missing.length === 0) return;
  const node = await nodeLabel(client);
  throw new FreshetError(ErrorCodes.searchUnsupported, 'critical',
    `${what} need${what.endsWith('s') ? '' : 's'} features this search node (${node}) lacks: ${missing.join('; ')}`, { node, missing });
}

/**
 * Probes every built-in analyzer the templates use (and the fallback of any that is missing) and
 * decides: all there, documented fallbacks, or a one-line refusal naming the analyzer.
 */
export async function analyzerPlanFor(client: Client, templates: readonly { settings?: unknown; mappings?: unknown }[]): Promise<{ plan: AnalyzerPlan; node?: string }> {
  const names = [...new Set(templates.flatMap((t) => referencedAnalyzers(t)))];
  const seen = new Map<string, Availability>();
  const probe = async (name: string): Promise<Availability> => {
    let a = seen.get(name);
    if (!a) seen.set(name, (a = await probeAnalyzer(client, name)));
    return a;
  };
  for (const name of names) await probe(name);
  if ([...seen.values()].every((a) => a.ok)) return { plan: { fallbacks: [] } };
  for (const name of names) {
    const fallback = ANALYZER_FALLBACKS[name];
    if (!seen.get(name)?.ok && fallback !== undefined) await probe(fallback);
  }
  const node = await nodeLabel(client);
  return { plan: planAnalyzers(names, (n) => seen.get(n), node), node };
}
