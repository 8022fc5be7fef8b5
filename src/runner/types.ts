import type { OperatorFunction } from 'rxjs';
import type { Clock } from '../core/clock';
import type { DocEnvelope, Settlement, SubjectState } from '../core/envelope';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import type { Rng } from '../core/rng';
import type { DeadLetterWriter } from '../core/dead-letter';
import type { Fetcher, FetchRequest, PolitenessGate } from '../fetchers/contract';
import type { Adapter, VisitContext } from '../parsers/adapter';
import type { NextVisitPolicy } from '../schedule/contract';
import type { Settled } from '../sinks/contract';
import type { ControlSignal, FrontierReadings, JobLeases, SubjectIntake, ThroughputCounter } from '../sources/contract';
import type { RefusedRequests } from './polite-fetch';
import type { SubjectDocRef } from './subject-status';

export interface RunDeps {
  /** Claims, leases, acks, and takes in seeds and discovered subjects. */
  frontier: JobLeases & SubjectIntake;
  /** The frontier's numbers: the idle check and the parsers' subject count. */
  readings: FrontierReadings;
  /** Where acknowledged visits are counted per minute. */
  throughput: ThroughputCounter;
  deadLetters: DeadLetterWriter;
  fetcher: Fetcher;
  /** Per-origin politeness across workers; none: no gate. */
  gate?: PolitenessGate;
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
  /** The operator's pause and drain for every worker (`freshet serve`); none: always run. */
  control?: ControlSignal;
  /** The parser's reading of soft blocks (Adapter.softBlockOf), given with every request. */
  softBlockOf?: FetchRequest['softBlockOf'];
  /** The stored monitoring state of a subject's posts (deletion monitoring), given to the parser. */
  indexedPosts?: VisitContext['indexedPosts'];
  /** The completeness ledger's counts of a subject (monitored crawls), given to the parser. */
  ledgerCounts?: VisitContext['ledgerCounts'];
}

export type DropFn = (env: DocEnvelope, stage: string, reason: string) => void;

export interface RunLimits {
  /** Stop claiming once this many requests were made (in-flight visits finish). */
  maxFetches?: number;
  durationMs?: number;
  /** Stop when nothing is due and nothing is leased. */
  untilIdle?: boolean;
}

export type StopReason = 'idle' | 'max_fetches' | 'duration' | 'signal' | 'error' | 'drain';

export interface RunSummary {
  jobs: number;
  jobsFailed: number;
  /** Visits a limit paused after some pages (their rest is due as soon as the limit allows). */
  jobsPaused: number;
  /** Visits cut when the run stopped on a signal; their subjects were given back, due now. */
  jobsRequeued: number;
  leasesLost: number;
  /** Requests sent to the sites. */
  requests: number;
  /** Requests refused locally before they left (quota, politeness, robots.txt): never sent. */
  refused: RefusedRequests;
  /** Failed visits by error code, throttled ones included. */
  failureCodes: Record<string, number>;
  /** Subjects dead-lettered by this run. */
  deadLettered: number;
  documents: Record<Settlement, number>;
  stoppedBy: StopReason;
  elapsedMs: number;
}

/** What a running run has done so far. */
export type RunProgress = Omit<RunSummary, 'stoppedBy' | 'elapsedMs'> & {
  inFlight: number;
  /** Jobs claimed so far. */
  claimed: number;
  /** Held by the operator's pause (no claims). */
  paused: boolean;
};
