import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ErrorCodes, FreshetError, type ErrorKind } from '../core/errors';
import type { LogRecord, Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import type { FetchedText } from '../parsers/adapter';
import type { PageRead, PageReader } from '../parsers/web-page-read';
import type { PageDone, PageWorkInit, StageSample } from './page-work';

type Answer = PageDone | { id: number; error: { message: string; code?: string; kind?: ErrorKind } } | { log: LogRecord };

interface Slot {
  index: number;
  worker: Worker;
  pending: Map<number, { resolve(read: PageRead): void; reject(err: Error): void }>;
  /** Exits since this slot last answered a page: a thread that cannot start is not restarted forever. */
  exitsWithoutAnswer: number;
}

export interface PagePoolOptions {
  threads: number;
  init: PageWorkInit;
  logger: Logger;
  metrics: Metrics;
  /** Starts one thread; by default the compiled page-worker.js beside this file. */
  spawn?: (init: PageWorkInit) => Worker;
}

/** A thread that exits this many times in a row without answering a page is not restarted. */
const MAX_EXITS_WITHOUT_ANSWER = 3;

/**
 * Reads pages on worker threads (parse, rules and the leading stateless stages), so page CPU
 * runs beside the main thread's fetching, frontier and sink work. A page goes to the thread with
 * the fewest pages in hand. Nothing queues here beyond what the runner's credits let in flight:
 * every read belongs to a visit holding a credit. A thread that dies fails its pages with a
 * retryable error (the runner reschedules their visits) and is restarted.
 */
export class PagePool implements PageReader {
  private readonly slots: Slot[] = [];
  private nextId = 0;
  private closed = false;
  private failed: FreshetError | undefined;
  private readonly seconds = new Map<string, ReturnType<Metrics['stageSeconds']['labels']>>();
  private readonly spawn: (init: PageWorkInit) => Worker;

  constructor(private readonly options: PagePoolOptions) {
    this.spawn = options.spawn ?? spawnPageWorker;
    for (let i = 0; i < options.threads; i++) {
      const slot: Slot = { index: i, worker: undefined as unknown as Worker, pending: new Map(), exitsWithoutAnswer: 0 };
      this.start(slot);
      this.slots.push(slot);
    }
  }

  read(page: FetchedText, subject: string, lastVisitMs: number | undefined): Promise<PageRead> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.closed) return Promise.reject(new FreshetError(ErrorCodes.pageWorker, 'retryable', 'page pool closed'));
    let slot = this.slots[0]!;
    for (const s of this.slots) if (s.pending.size < slot.pending.size) slot = s;
    const id = ++this.nextId;
    return new Promise<PageRead>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, page, subject, lastVisitMs });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private start(slot: Slot): void {
    const worker = this.spawn(this.options.init);
    slot.worker = worker;
    worker.on('message', (m: Answer) => this.answer(slot, m));
    // The exit that follows settles the pages; this is only where the cause is known.
    worker.on('error', (err) => this.options.logger.error({ code: ErrorCodes.pageWorker, thread: slot.index, err: err.message }, 'page worker thread failed'));
    worker.on('exit', (exitCode) => this.exited(slot, worker, exitCode));
  }

  private answer(slot: Slot, m: Answer): void {
    if ('log' in m) {
      this.options.logger[m.log.level]({ thread: slot.index, ...m.log.fields }, m.log.msg);
      return;
    }
    const p = slot.pending.get(m.id);
    if (!p) return;
    slot.pending.delete(m.id);
    slot.exitsWithoutAnswer = 0;
    if ('error' in m) {
      const e = m.error;
      p.reject(e.code && e.kind ? new FreshetError(e.code, e.kind, e.message) : new Error(e.message));
      return;
    }
    this.record(m.samples);
    p.resolve(m.read);
  }

  /** The stages' counts and durations from the thread, into the pipeline's metrics as if they ran here. */
  private record(samples: StageSample[]): void {
    const { metrics } = this.options;
    for (const s of samples) {
      const tally = metrics.stageTally(s.stage);
      tally.received += s.received;
      tally.sent += s.sent;
      let h = this.seconds.get(s.stage);
      if (!h) this.seconds.set(s.stage, (h = metrics.stageSeconds.labels(s.stage)));
      for (const x of s.seconds) h.observe(x);
    }
  }

  private exited(slot: Slot, worker: Worker, exitCode: number): void {
    if (this.closed || slot.worker !== worker) return;
    const lost = [...slot.pending.values()];
    slot.pending.clear();
    slot.exitsWithoutAnswer += 1;
    if (slot.exitsWithoutAnswer >= MAX_EXITS_WITHOUT_ANSWER) {
      this.failed = new FreshetError(ErrorCodes.pageWorker, 'critical', `page worker thread ${slot.index} exited ${slot.exitsWithoutAnswer} times without reading a page (last exit code ${exitCode})`);
      this.options.logger.error({ code: ErrorCodes.pageWorker, thread: slot.index, exit_code: exitCode }, 'page worker thread keeps exiting; not restarted');
      for (const p of lost) p.reject(this.failed);
      return;
    }
    this.options.logger.warn({ code: ErrorCodes.pageWorker, thread: slot.index, exit_code: exitCode, pages: lost.length }, 'page worker thread exited; restarting it, its pages are retried');
    for (const p of lost) p.reject(new FreshetError(ErrorCodes.pageWorker, 'retryable', `page worker thread ${slot.index} exited (code ${exitCode}) while reading the page`));
    this.start(slot);
  }
}

/**
 * A page's DOM and its extraction die young: a 16 MiB young generation holds them, where V8's
 * default lets each thread's heap grow by some 60 MiB of garbage between collections (peak RSS of
 * the throughput benchmark 422 -> 357 MiB with one thread, at the same CPU per page).
 */
const PAGE_WORKER_LIMITS = { maxYoungGenerationSizeMb: 16 };

/**
 * The compiled thread entry beside this file; from TypeScript sources (the test runner) the
 * thread compiles them with @swc/core, a dev dependency, as the test runner does.
 */
export function spawnPageWorker(init: PageWorkInit): Worker {
  const js = join(__dirname, 'page-worker.js');
  if (existsSync(js)) return new Worker(js, { workerData: init, resourceLimits: PAGE_WORKER_LIMITS });
  const swc = require.resolve('@swc/core');
  const entry = join(__dirname, 'page-worker.ts');
  const bootstrap = `
const { readFileSync } = require('node:fs');
const swc = require(${JSON.stringify(swc)});
require.extensions['.ts'] = (m, filename) => m._compile(swc.transformSync(readFileSync(filename, 'utf8'), { filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }).code, filename);
require(${JSON.stringify(entry)});`;
  return new Worker(bootstrap, { eval: true, workerData: init, resourceLimits: PAGE_WORKER_LIMITS });
}
