import type { Client } from '@elastic/elasticsearch';
import { concatMap, from, map, mergeMap, type Observable } from 'rxjs';
import { z } from 'zod';
import type { Clock } from '../core/clock';
import type { Doc, DocEnvelope, VersionOutcome } from '../core/envelope';
import { ErrorCodes, FreshetError } from '../core/errors';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import { batchBy } from '../core/operators/batch';
import { describeNodeError } from '../search/node-errors';
import { backoffMs, decideRetry, retryPolicySchema } from '../core/retry';
import type { Rng } from '../core/rng';
import type { DeadLetter } from '../core/dead-letter';
import { bulkItemKind, sendBulk, type BulkItem } from './bulk';
import type { Settled, Sink } from './contract';
import { timerMs } from '../core/timers';
import { versionedUpdateLines } from './page-versions';
import { mergedUpdateLines } from './post-merge-script';

export const elasticsearchSinkConfigSchema = z.strictObject({
  type: z.literal('elasticsearch'),
  flush_bytes: z.number().int().min(1024).default(5 * 1024 * 1024),
  flush_docs: z.number().int().min(1).default(1000),
  flush_interval_ms: timerMs(1).default(1000),
  concurrency: z.number().int().min(1).max(64).default(2),
  /** Per-item retries of 5xx answers; 429 items are retried until accepted (the sink pauses). */
  retry: retryPolicySchema.default(retryPolicySchema.parse({ max_attempts: 5, base_delay_ms: 200, max_delay_ms: 10_000 })),
  /** Back-off cap while the search node is unreachable; the sink retries until it returns. */
  outage_max_delay_ms: timerMs(100).default(5_000),
  request_timeout_ms: timerMs(1000).default(60_000),
  /** Overrides number_of_replicas in the templates applied at start-up (0 on a single node). */
  replicas: z.number().int().min(0).optional(),
  /**
   * Logical indices whose documents keep versions (see page-versions): unchanged content (same
   * `content_signature`) is not re-indexed, changed content keeps the earlier text and time.
   */
  versioned_indices: z.array(z.string().min(1)).default([]),
  /** Earlier versions kept per document, newest first. */
  max_versions: z.number().int().min(1).max(1000).default(20),
  /**
   * Logical indices whose documents are merged into the stored ones rather than replacing them
   * (monitored posts, see post-merge-script): a re-read keeps the versions and the tombstone
   * fields. A weibo_api parser with `monitor` adds `posts` itself.
   */
  merged_indices: z.array(z.string().min(1)).default([]),
});

export type ElasticsearchSinkConfig = z.infer<typeof elasticsearchSinkConfigSchema>;

export interface SinkDeps {
  client: Client;
  indexPrefix: string;
  clock: Clock;
  rng: Rng;
  logger: Logger;
  metrics: Metrics;
  deadLetter(entry: DeadLetter): Promise<void>;
  sleep(ms: number): Promise<void>;
  /** The runner's requests to send what the sink holds now (see RunDeps.flushSink). */
  flushRequests?: Observable<unknown>;
}

interface Pending {
  job: DocEnvelope['job'];
  index: string;
  id: string;
  /**
   * The document itself, kept only where the bulk result is read against it (a merge or a versioned
   * index). A document indexed as is lives on as its lines alone: held across the bulk round trip,
   * its body (tens of small objects per post) survived the young generation and cost the crawl
   * more in scavenges than the serialising did.
   */
  doc?: Doc;
  /**
   * The two NDJSON lines, serialised and UTF-8 encoded once, reused on retries. Bytes rather than
   * a string: what waits for a bulk slot is then off the JS heap, not copied by every scavenge,
   * and the bulk body is a concatenation of bytes instead of a join and a second encoding.
   */
  bytes: Buffer;
  attempts: number;
}

/** The document of a pending item: kept, or read back from its body line (a dead letter, rare). */
function docOf(p: Pending): Doc {
  if (p.doc) return p.doc;
  const body = p.bytes.toString('utf8', p.bytes.indexOf(10) + 1, p.bytes.length - 1);
  return { index: p.index, id: p.id, body: JSON.parse(body) as Record<string, unknown> };
}

/**
 * The bulk lines that write one document the way this sink does: merged into the stored one (a
 * monitoring op, or a merged index), versioned, or indexed as is. A requeued dead letter is sent
 * with these too, so that it cannot replace a post's versions or tombstone.
 */
export function documentLines(config: Pick<ElasticsearchSinkConfig, 'versioned_indices' | 'merged_indices' | 'max_versions'>, indexPrefix: string, doc: Doc): string {
  const target = `${indexPrefix}${doc.index}`;
  if (doc.op !== undefined || config.merged_indices.includes(doc.index)) return mergedUpdateLines(target, doc.id, doc.body, doc.op ?? 'post', config.max_versions);
  if (config.versioned_indices.includes(doc.index)) return versionedUpdateLines(target, doc.id, doc.body, config.max_versions);
  return `${JSON.stringify({ index: { _index: target, _id: doc.id } })}\n${JSON.stringify(doc.body)}\n`;
}

/** Bulk-indexes documents and emits each one settled: indexed or dead-lettered, never lost. */
export function elasticsearchSink(config: ElasticsearchSinkConfig, deps: SinkDeps): Sink {
  // The action line up to its id, per logical index: `{"index":{"_index":"<prefix><index>","_id":`,
  // what JSON.stringify of the action object starts with, without building that object per document.
  const actionHeads = new Map<string, string>();
  const versioned = new Set(config.versioned_indices);
  const merged = new Set(config.merged_indices);
  const serialise = (env: DocEnvelope): Pending => {
    const { index, id, op } = env.doc;
    // A change to a stored document (a monitoring op) is always merged: sent as is, it would replace the post.
    if (op !== undefined || merged.has(index) || versioned.has(index)) return { job: env.job, index, id, doc: env.doc, bytes: Buffer.from(documentLines(config, deps.indexPrefix, env.doc), 'utf8'), attempts: 0 };
    let head = actionHeads.get(index);
    if (head === undefined) actionHeads.set(index, (head = `{"index":{"_index":${JSON.stringify(`${deps.indexPrefix}${index}`)},"_id":`));
    return { job: env.job, index, id, bytes: Buffer.from(`${head}${JSON.stringify(id)}}}\n${JSON.stringify(env.doc.body)}\n`, 'utf8'), attempts: 0 };
  };
  return (source) => source.pipe(
    map(serialise),
    batchBy<Pending>({
      maxCount: config.flush_docs, maxBytes: config.flush_bytes, maxWaitMs: config.flush_interval_ms, sizeOf: (p) => p.bytes.length,
      ...(deps.flushRequests ? { flushRequests: deps.flushRequests } : {}),
    }),
    mergeMap((batch) => from(flushBatch(batch, config, deps)), config.concurrency),
    concatMap((settled) => settled),
  );
}

/**
 * A versioned page read live (not a deletion or move mark) told by the bulk result: `created` (first
 * sight), `updated` (a new version: its text signature changed), `noop` (the same text).
 */
function versionOf(doc: Doc, result: string | undefined, config: ElasticsearchSinkConfig): VersionOutcome | undefined {
  if (doc.op !== undefined || doc.body['status'] !== undefined || !config.versioned_indices.includes(doc.index)) return undefined;
  return result === 'noop' ? 'unchanged' : result === 'updated' ? 'changed' : result === 'created' ? 'created' : undefined;
}

/** What a settlement tells the runner: the job, and which document (its body is not kept). */
function settledEnv(p: Pending): Settled['env'] {
  return { doc: { index: p.index, id: p.id }, job: p.job };
}

async function flushBatch(batch: Pending[], config: ElasticsearchSinkConfig, deps: SinkDeps): Promise<Settled[]> {
  const settled: Settled[] = [];
  let pending = batch;
  let outageAttempt = 0;
  while (pending.length > 0) {
    // One Buffer: the socket would encode a string body anyway, and the transport and the byte
    // counter would each scan it for its UTF-8 length.
    const body = pending.length === 1 ? pending[0]!.bytes : Buffer.concat(pending.map((p) => p.bytes));
    let items: BulkItem[];
    const sentAtMs = deps.clock.nowMs();
    try {
      items = await sendBulk(deps.client, body, config.request_timeout_ms, config.versioned_indices.length > 0 || config.merged_indices.length > 0);
      deps.metrics.bulkSeconds.observe((deps.clock.nowMs() - sentAtMs) / 1000);
      deps.metrics.bulkRequests.inc({ outcome: 'ok' });
      deps.metrics.bulkBytes.inc(body.length);
      if (outageAttempt > 0) deps.logger.info({ attempts: outageAttempt }, 'search node reachable again; resuming bulk indexing');
      outageAttempt = 0;
    } catch (err) {
      // The whole request failed (node down, timeout, 5xx): nothing is lost, the sink pauses.
      outageAttempt += 1;
      deps.metrics.bulkRequests.inc({ outcome: 'error' });
      deps.metrics.errors.inc({ stage: 'elasticsearch', code: ErrorCodes.searchUnreachable });
      if (outageAttempt === 1) {
        deps.logger.warn({ code: ErrorCodes.searchUnreachable, err: (err as Error).message, docs: pending.length }, 'bulk request failed; retrying until the search node answers');
      }
      await deps.sleep(backoffMs(outageAttempt, { ...config.retry, max_delay_ms: config.outage_max_delay_ms }, deps.rng));
      continue;
    }
    const retry: Pending[] = [];
    let throttled = false;
    // Counted per index once per bulk response: a labelled counter update per document showed in the profile.
    const indexed = new Map<string, number>();
    for (let i = 0; i < pending.length; i++) {
      const p = pending[i]!;
      const item = items[i];
      const status = item?.status ?? 500;
      const kind = bulkItemKind(status);
      if (kind === 'ok') {
        const version = p.doc ? versionOf(p.doc, item?.result, config) : undefined;
        settled.push({ env: settledEnv(p), how: 'indexed', ...(version ? { version } : {}) });
        // A versioned document whose content did not change (or a merge that changed nothing) is settled without a write.
        const key = item?.result === 'noop' ? `${p.index}\u0000unchanged` : p.index;
        indexed.set(key, (indexed.get(key) ?? 0) + 1);
        continue;
      }
      p.attempts += 1;
      const code = kind === 'non_retryable' ? ErrorCodes.searchItemRejected : ErrorCodes.searchItemThrottled;
      const err = new FreshetError(code, kind, item?.error ? describeNodeError(item.error) : `HTTP ${status}`, { status });
      const decision = decideRetry(err, p.attempts, config.retry, deps.rng);
      if (kind === 'throttled' || decision.action === 'retry') {
        throttled ||= kind === 'throttled';
        retry.push(p);
        continue;
      }
      await deadLetter(p, err, config, deps);
      settled.push({ env: settledEnv(p), how: 'dead_lettered' });
    }
    for (const [key, n] of indexed) {
      const [index, outcome] = key.split('\u0000');
      deps.metrics.docs.inc({ index: index!, outcome: outcome ?? 'indexed' }, n);
    }
    pending = retry;
    if (pending.length > 0) {
      const attempt = Math.max(...pending.map((p) => p.attempts));
      await deps.sleep(backoffMs(attempt, config.retry, deps.rng) + (throttled ? config.retry.base_delay_ms : 0));
    }
  }
  return settled;
}

/**
 * Writes a rejected document to the dead-letter stream, retrying while Redis is away: the
 * document is settled only once the stream holds it (nothing is lost, and one failed write does
 * not end the run), and only then counted and logged as dead-lettered.
 */
async function deadLetter(p: Pending, err: FreshetError, config: ElasticsearchSinkConfig, deps: SinkDeps): Promise<void> {
  const entry = { code: err.code, stage: 'elasticsearch', subject: p.job.subject, id: p.id, message: err.message, payload: docOf(p) };
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.deadLetter(entry);
      if (attempt > 1) deps.logger.info({ attempts: attempt, id: p.id }, 'dead-letter write stored after Redis returned');
      break;
    } catch (writeErr) {
      if (attempt === 1) {
        deps.metrics.errors.inc({ stage: 'elasticsearch', code: ErrorCodes.redisUnavailable });
        deps.logger.warn({ code: ErrorCodes.redisUnavailable, id: p.id, err: (writeErr as Error).message }, 'dead-letter write failed; retrying until Redis answers');
      }
      await deps.sleep(backoffMs(attempt, { ...config.retry, max_delay_ms: config.outage_max_delay_ms }, deps.rng));
    }
  }
  deps.metrics.docs.inc({ index: p.index, outcome: 'dead_lettered' });
  deps.metrics.deadLetters.inc({ code: err.code });
  deps.metrics.errors.inc({ stage: 'elasticsearch', code: err.code });
  deps.logger.warn({ code: err.code, id: p.id, index: p.index, reason: err.message }, 'document rejected by the search node; dead-lettered');
}
