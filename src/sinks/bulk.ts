import type { Client } from '@elastic/elasticsearch';
import type { ErrorKind } from '../core/errors';

/**
 * The one bulk writer: NDJSON to `_bulk`, one status (and error) per item back. The sink indexes
 * documents with it; the subject status writer updates profiles with it.
 */
export interface BulkItem {
  status: number;
  error?: { type: string; reason: string };
  /** Asked for only when some index is versioned (a `noop` is an unchanged page). */
  result?: string;
}

/**
 * filter_path keeps only each item's status and error: the full response repeats index, id,
 * version, shard counts and sequence numbers for every document, and parsing that cost more than
 * building the request.
 */
export async function sendBulk(client: Client, ndjson: Buffer, timeoutMs: number, withResult = false): Promise<BulkItem[]> {
  const res = await client.transport.request<{ items?: Record<string, BulkItem>[] }>(
    { method: 'POST', path: '/_bulk', bulkBody: ndjson, querystring: { filter_path: withResult ? 'items.*.status,items.*.error,items.*.result' : 'items.*.status,items.*.error' } },
    { requestTimeout: timeoutMs, maxRetries: 0 },
  );
  return (res.items ?? []).map((entry) => Object.values(entry)[0]!);
}

/**
 * What an item's status means: accepted, or the retry decision of its error. 429: the node sheds
 * load (retry later, without counting against the item); 5xx: the node failed (retry); anything
 * else: this item will not be accepted as it is.
 */
export function bulkItemKind(status: number): 'ok' | Exclude<ErrorKind, 'critical'> {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 429) return 'throttled';
  return status >= 500 ? 'retryable' : 'non_retryable';
}
