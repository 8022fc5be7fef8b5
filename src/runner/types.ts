import type { OperatorFunction } from 'rxjs';
import type { Clock } from '../core/clock';
import type { DocEnvelope, Settlement, SubjectState } from '../core/envelope';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import type { Rng } from '../core/rng';
import type { Fetcher } from '../fetchers/contract';
import type { Adapter } from '../parsers/contract';
import type { NextVisitPolicy } from '../schedule/contract';
import type { Settled } from '../sinks/contract';
import type { RedisFrontier } from '../sources/frontier/frontier';
import type { SubjectDocRef } from './subject-status';

export interface RunDeps {
  frontier: RedisFrontier;
  fetcher: Fetcher;
  adapter: Adapter;
  sink: OperatorFunction<DocEnvelope, Settled>;
  /** Filters and enrichers between parser and sink; built with the runner's `drop`. */
  stages?: (drop: DropFn) => OperatorFunction<DocEnvelope, DocEnvelope>[];
  schedule: NextVisitPolicy;
  clock: Clock;
  rng: Rng;
  logger: Logger;
  metrics: Metrics;
  sleep(ms: number): Promise<void>;
  /** Asks the sink to send what it holds now (see SinkFlushTrigger). */
  flushSink?(): void;
  /** Told each visited subject's schedule, with the profile document its visit emitted. */
  subjectStatus?: { scheduled(ref: SubjectDocRef, state: SubjectState, nextDueMs: number): void };
}

export type DropFn = (env: DocEnvelope, stage: string, reason: string) => void;

export interface RunLimits {
  /** Stop claiming once this many requests were made (in-flight visits finish). */
  maxFetches?: number;
  durationMs?: number;
  /** Stop when nothing is due and nothing is leased. */
  untilIdle?: boolean;
}

export type StopReason = 'idle' | 'max_fetches' | 'duration' | 'signal' | 'error';

export interface RunSummary {
  jobs: number;
  jobsFailed: number;
  leasesLost: number;
  requests: number;
  documents: Record<Settlement, number>;
  stoppedBy: StopReason;
  elapsedMs: number;
}
