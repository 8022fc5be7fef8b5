import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { withFallbacks } from '../search/analyzer-plan';
import { analyzerPlanFor, requireFeatures } from '../search/features';
import { toQuery, type SavedQuery } from './saved-queries';

/**
 * The saved queries live in their own index as percolator documents; its mapping copies the
 * posts template's fields, so a query analyses `text` exactly as the posts index does (with the
 * same analyzer fallback on a node that lacks one). A node without the percolator or
 * delete-by-query refuses alerts here, in one line, before anything is created.
 */
export async function registerSavedQueries(client: Client, index: string, mappingsDir: string, queries: SavedQuery[]): Promise<void> {
  await requireFeatures(client, ['percolator', 'delete_by_query'], 'alerts');
  const posts = JSON.parse(readFileSync(join(mappingsDir, 'posts.json'), 'utf8')) as { template: { settings?: Record<string, unknown>; mappings: { properties: Record<string, unknown> } } };
  const exists = await client.indices.exists({ index });
  if (!exists) {
    const { plan } = await analyzerPlanFor(client, [posts.template]);
    const { properties } = withFallbacks({ properties: posts.template.mappings.properties }, plan);
    await client.indices.create({
      index,
      settings: { number_of_shards: 1, number_of_replicas: 0, ...(posts.template.settings?.['analysis'] ? { analysis: posts.template.settings['analysis'] } : {}) },
      mappings: { dynamic: 'strict', properties: { ...properties, alert_query: { type: 'percolator' }, alert_name: { type: 'keyword' } } as never },
    });
  }
  // The file is the truth: queries no longer in it are removed.
  await client.deleteByQuery({ index, query: { bool: { must_not: { terms: { alert_name: queries.map((q) => q.name) } } } }, refresh: true, conflicts: 'proceed' });
  for (const q of queries) await client.index({ index, id: q.name, document: { alert_name: q.name, alert_query: toQuery(q) } });
  await client.indices.refresh({ index });
}

/** For each document (by position), the names of the saved queries it matches. */
export async function percolate(client: Client, index: string, docs: Record<string, unknown>[]): Promise<string[][]> {
  const out: string[][] = docs.map(() => []);
  if (docs.length === 0) return out;
  const res = await client.search<{ alert_name: string }>({
    index, size: 10_000, _source: ['alert_name'],
    query: { percolate: { field: 'alert_query', documents: docs } },
  });
  for (const hit of res.hits.hits) {
    const slots = (hit.fields?.['_percolator_document_slot'] ?? []) as number[];
    for (const slot of slots) out[slot]!.push(hit._source!.alert_name);
  }
  return out;
}
