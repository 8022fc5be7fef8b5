import { from, lastValueFrom, toArray, type OperatorFunction } from 'rxjs';
import type { Clock } from '../core/clock';
import { JobTracker, type DocEnvelope } from '../core/envelope';
import type { Logger } from '../core/logger';
import { createMetrics, meterStage } from '../core/metrics';
import type { Rng } from '../core/rng';
import type { FetchedText } from '../core/visit';
import { pageReading, readPage, type DroppedDoc, type PageRead, type PageReading } from '../parsers/web-page-read';
import type { WebPagesConfig } from '../parsers/web-pages';
import { stageDefinition, type DocumentStageConfig } from '../pipeline/stages';

/** What a page worker thread is started with (structured-cloned into the thread). */
export interface PageWorkInit {
  pipeline: string;
  parse: WebPagesConfig;
  /** The pipeline's leading stateless stages: they run on the page's documents in the thread. */
  stages: DocumentStageConfig[];
  seed: number;
}

export interface PageRequest {
  id: number;
  page: FetchedText;
  subject: string;
  lastVisitMs: number | undefined;
}

/** One stage's counts for one page, merged into the main thread's metrics. */
export interface StageSample {
  stage: string;
  received: number;
  sent: number;
  /** Per-document durations, for the stage's duration histogram. */
  seconds: number[];
}

export interface PageDone {
  id: number;
  read: PageRead;
  samples: StageSample[];
}

/** The stages whose work may move to page worker threads: the leading run of stateless ones (order is kept). */
export function leadingStatelessStages(stages: readonly DocumentStageConfig[]): DocumentStageConfig[] {
  const n = stages.findIndex((s) => !stageDefinition(s.type).stateless);
  return stages.slice(0, n === -1 ? stages.length : n);
}

/**
 * A page's work on a worker thread: read it, then run the leading stateless stages over its
 * documents. Kept apart from the thread's message loop so it is tested on the calling thread.
 */
export class PageWork {
  private readonly stages: { op: OperatorFunction<DocEnvelope, DocEnvelope>; sample: StageSample }[];
  /** Each page's envelopes share one tracker: a drop finds its page's list through it (pages may overlap in time). */
  private readonly drops = new WeakMap<JobTracker, DroppedDoc[]>();

  private readonly reading: PageReading;

  constructor(private readonly init: PageWorkInit, deps: { clock: Clock; rng: Rng; logger: Logger }) {
    this.reading = pageReading(init.parse);
    // Stages report drops through `drop` and are metered into `sample`; the thread's own registry is never read.
    const metrics = createMetrics();
    this.stages = init.stages.map((config) => {
      const sample: StageSample = { stage: config.type, received: 0, sent: 0, seconds: [] };
      const op = stageDefinition(config.type).build(config, {
        pipeline: init.pipeline, clock: deps.clock, rng: deps.rng, logger: deps.logger, metrics,
        drop: (env, stage, reason) => this.drops.get(env.job)?.push({ doc: { index: env.doc.index, id: env.doc.id }, stage, reason }),
      });
      return { op: meterStage({ tally: sample, seconds: { observe: (x) => sample.seconds.push(x) }, sampled: { seen: 0 } }, op), sample };
    });
  }

  /** `req` is the thread's own copy of the page: its text is let go as soon as it is parsed. */
  async run(req: PageRequest): Promise<PageDone> {
    const read = readPage(this.reading, req.page, req.subject, req.lastVisitMs, true);
    if (read.docs.length === 0 || this.stages.length === 0) return { id: req.id, read, samples: [] };
    // The stages see envelopes as on the main thread; this tracker is never acknowledged.
    const job = new JobTracker({ subject: req.subject, state: { firstSeenMs: 0, postsSeen: 0, visits: 0, failures: 0, status: 'active' }, claimedAtMs: 0, leaseToken: '' });
    this.drops.set(job, read.drops);
    const docs = this.stages.reduce((o, s) => o.pipe(s.op), from(read.docs.map((doc): DocEnvelope => ({ doc, job }))));
    read.docs = (await lastValueFrom(docs.pipe(toArray()))).map((env) => env.doc);
    return { id: req.id, read, samples: this.stages.map((s) => drain(s.sample)) };
  }
}

/** The counts and durations since the last page, handed on and reset. */
function drain(s: StageSample): StageSample {
  const out = { ...s };
  s.received = 0;
  s.sent = 0;
  s.seconds = [];
  return out;
}
