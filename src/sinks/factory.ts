import type { Client } from '@elastic/elasticsearch';
import { Subject } from 'rxjs';
import type { Clock } from '../core/clock';
import type { DeadLetterWriter } from '../core/dead-letter';
import type { Logger } from '../core/logger';
import { meteredStage, type Metrics } from '../core/metrics';
import type { Rng } from '../core/rng';
import { requireFeatures } from '../search/features';
import { applyTemplates, loadTemplates } from '../search/templates';
import { blackholeSink, type BlackholeSinkConfig } from './blackhole';
import type { Sink } from './contract';
import { elasticsearchSink, type ElasticsearchSinkConfig } from './elasticsearch';

export type SinkConfig = ElasticsearchSinkConfig | BlackholeSinkConfig;

export interface SinkFactoryDeps {
  /** Required by the elasticsearch sink. */
  search?: Client | undefined;
  indexPrefix: string;
  mappingsDir: string;
  deadLetters: DeadLetterWriter;
  clock: Clock;
  rng: Rng;
  logger: Logger;
  metrics: Metrics;
  sleep(ms: number): Promise<void>;
}

export interface BuiltSink {
  sink: Sink;
  /** Asks the sink to send what it holds now (the runner's SinkFlushTrigger). */
  flush(): void;
}

/** The sink of a pipeline; the elasticsearch sink applies the index templates first. */
export async function buildSink(config: SinkConfig, deps: SinkFactoryDeps): Promise<BuiltSink> {
  if (config.type === 'blackhole') return { sink: blackholeSink(), flush: () => undefined };
  if (!deps.search) throw new Error('the elasticsearch sink needs a search client');
  const settings = config.replicas === undefined ? {} : { number_of_replicas: config.replicas };
  await applyTemplates(deps.search, loadTemplates(deps.mappingsDir), { prefix: deps.indexPrefix, settings, logger: deps.logger, registry: deps.metrics.registry });
  // Kept versions and merged posts are scripted updates: refused in one line before the crawl starts, not per document.
  if (config.versioned_indices.length > 0 || config.merged_indices.length > 0) await requireFeatures(deps.search, ['painless'], 'versioned_indices and merged_indices');
  const flushRequests = new Subject<void>();
  const sink = meteredStage(deps.metrics, 'elasticsearch', elasticsearchSink(config, {
    client: deps.search, indexPrefix: deps.indexPrefix, clock: deps.clock, rng: deps.rng, logger: deps.logger,
    metrics: deps.metrics, sleep: deps.sleep, deadLetter: (e) => deps.deadLetters.deadLetter(e), flushRequests,
  }), (settled) => settled.env);
  return { sink, flush: () => flushRequests.next() };
}
