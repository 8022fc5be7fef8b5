import type { Worker } from 'node:worker_threads';
import { ErrorCodes, FreshetError, type ErrorCode, type ErrorKind } from '../core/errors';
import type { LogRecord, Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import type { FetchedText } from '../core/visit';
import type { PageRead, PageReader } from '../parsers/web-page-read';
import type { PageDone, PageWorkInit, StageSample } from './page-work';
import { COLLECT_AFTER_PAGE_CHARS, fullCollection } from './full-collection';
import { spawnThread } from './spawn-thread';

type Answer = PageDone | { id: number; error: { message: string; code?: ErrorCode; kind?: ErrorKind } } | { log: LogRecord } | { ready: true };

interface Slot {
  index: number;
  worker: Worker;
  pending: Map<number, { resolve(read: PageRead): void; reject(err: Error): void; chars: number }>;
  /** Characters of the pages in the thread's hand. */
  chars: number;
  /** The thread built its stages and takes pages. */
  ready: boolean;
  /** Exits before the thread was ready, in a row: a thread that cannot start is not restarted forever. */
  failedStarts: number;
}

export interface PagePoolOptions {
  threads: number;
  init: PageWorkInit;
  logger: Logger;
  metrics: Metrics;
  /** Starts one thread; by default the compiled page-worker.js beside this file. */
  spawn?: (init: PageWorkInit) => Worker;
  /** Characters of page text a thread holds at once (one page larger than this goes alone); default PAGE_CHARS_IN_HAND. */
  charsInHand?: number;
  /**
   * The main thread's full collection, run once big pages (each at least COLLECT_AFTER_PAGE_CHARS)
   * of `collectEveryChars` in all have been answered since the last; default fullCollection().
   */
  collect?: (() => void) | undefined;
  /** Default MAIN_COLLECT_EVERY_CHARS. */
  collectEveryChars?: number;
}

/**
 * Big pages' text answered between two collections on the main thread. Each such page leaves its
 * body's bytes (a Buffer, outside V8's heap) and its decoded text (a string in V8's large-object
 * space) as garbage that V8 collected only after ~160 MiB of them had piled up (issue 24). A full collection
 * of the main thread's heap (tens of MiB) after every 4 Mi characters of big pages costs tens of
 * milliseconds, against a second or more to parse each of those pages.
 */
export const MAIN_COLLECT_EVERY_CHARS = 4 * 2 ** 20;

/**
 * Page text a thread is given at once. A page's parse weighs many times its text (the DOM and the
 * garbage it leaves until the thread's next full collection): three 9.5 MB pages on a thread at
 * once took RSS to ~534 MiB (issue 24). Ordinary pages (tens to hundreds of kB) still go many at a
 * time; a big one goes alone, the others waiting on the main thread, where the run's byte budget
 * already holds their bodies.
 */
export const PAGE_CHARS_IN_HAND = 4 * 2 ** 20;

interface Waiting { id: number; message: { id: number; page: Omit<FetchedText, 'body'>; subject: string; lastVisitMs: number | undefined }; chars: number; resolve(read: PageRead): void; reject(err: Error): void }

/** A thread that exits this many times in a row before it is ready is not restarted. */
const MAX_FAILED_STARTS = 3;

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
  private readonly charsInHand: number;
  /** Pages waiting for room on a thread, in order (each belongs to a visit holding a credit). */
  private readonly waiting: Waiting[] = [];
  private readonly collect: (() => void) | undefined;
  private readonly collectEveryChars: number;
  /** Big pages' text answered since the main thread's last collection. */
  private bigCharsSinceCollect = 0;
  private collectQueued = false;

  constructor(private readonly options: PagePoolOptions) {
    this.spawn = options.spawn ?? spawnPageWorker;
    this.charsInHand = options.charsInHand ?? PAGE_CHARS_IN_HAND;
    this.collect = 'collect' in options ? options.collect : fullCollection();
    this.collectEveryChars = options.collectEveryChars ?? MAIN_COLLECT_EVERY_CHARS;
    for (let i = 0; i < options.threads; i++) {
      const slot: Slot = { index: i, worker: undefined as unknown as Worker, pending: new Map(), chars: 0, ready: false, failedStarts: 0 };
      this.start(slot);
      this.slots.push(slot);
    }
  }

  read(page: FetchedText, subject: string, lastVisitMs: number | undefined): Promise<PageRead> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.closed) return Promise.reject(new FreshetError(ErrorCodes.pageWorker, 'retryable', 'page pool closed'));
    const id = ++this.nextId;
    // The thread reads the text: the body's bytes (kept for sitemaps on this thread) would be
    // one more copy of the page, as large as the text, in the message and on the thread.
    const { body: _bytes, ...text } = page;
    return new Promise<PageRead>((resolve, reject) => {
      this.waiting.push({ id, message: { id, page: text, subject, lastVisitMs }, chars: text.text.length, resolve, reject });
      this.dispatch();
    });
  }

  /** How many pages wait for room on a thread (for the tests). */
  get waitingPages(): number {
    return this.waiting.length;
  }

  /** Hands waiting pages, in order, to the thread with the least text in hand while it has room. */
  private dispatch(): void {
    while (this.waiting.length > 0) {
      const w = this.waiting[0]!;
      let slot = this.slots[0]!;
      for (const s of this.slots) if (s.chars < slot.chars || (s.chars === slot.chars && s.pending.size < slot.pending.size)) slot = s;
      if (slot.pending.size > 0 && slot.chars + w.chars > this.charsInHand) return;
      this.waiting.shift();
      slot.pending.set(w.id, { resolve: w.resolve, reject: w.reject, chars: w.chars });
      slot.chars += w.chars;
      slot.worker.postMessage(w.message);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    // Pages in a thread's hand get no answer once it is terminated: fail them too, so their
    // visits give back their credits and are retried rather than waiting for their leases.
    const inHand = this.slots.flatMap((s) => {
      const pages = [...s.pending.values()];
      s.pending.clear();
      s.chars = 0;
      return pages;
    });
    for (const w of [...inHand, ...this.waiting.splice(0)]) w.reject(new FreshetError(ErrorCodes.pageWorker, 'retryable', 'page pool closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private start(slot: Slot): void {
    const worker = this.spawn(this.options.init);
    slot.worker = worker;
    slot.ready = false;
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
    if ('ready' in m) {
      slot.ready = true;
      slot.failedStarts = 0;
      return;
    }
    const p = slot.pending.get(m.id);
    if (!p) return;
    slot.pending.delete(m.id);
    slot.chars -= p.chars;
    this.dispatch();
    if (p.chars >= COLLECT_AFTER_PAGE_CHARS) this.collected(p.chars);
    if ('error' in m) {
      const e = m.error;
      p.reject(e.code && e.kind ? new FreshetError(e.code, e.kind, e.message) : new Error(e.message));
      return;
    }
    this.record(m.samples);
    p.resolve(m.read);
  }

  /** Counts a big page's garbage; collects (once the visits have let go of their pages) when enough has piled up. */
  private collected(chars: number): void {
    if (!this.collect) return;
    this.bigCharsSinceCollect += chars;
    if (this.bigCharsSinceCollect < this.collectEveryChars || this.collectQueued) return;
    this.collectQueued = true;
    setImmediate(() => {
      this.collectQueued = false;
      this.bigCharsSinceCollect = 0;
      if (!this.closed) this.collect?.();
    });
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
    slot.chars = 0;
    // A thread that dies on a page (out of memory on a huge one) is restarted for the next; one that cannot start is given up.
    if (!slot.ready) slot.failedStarts += 1;
    if (slot.failedStarts >= MAX_FAILED_STARTS) {
      this.failed = new FreshetError(ErrorCodes.pageWorker, 'critical', `page worker thread ${slot.index} exited ${slot.failedStarts} times before it was ready (last exit code ${exitCode})`);
      this.options.logger.error({ code: ErrorCodes.pageWorker, thread: slot.index, exit_code: exitCode }, 'page worker thread keeps exiting; not restarted');
      for (const p of [...lost, ...this.waiting.splice(0)]) p.reject(this.failed);
      return;
    }
    this.options.logger.warn({ code: ErrorCodes.pageWorker, thread: slot.index, exit_code: exitCode, pages: lost.length }, 'page worker thread exited; restarting it, its pages are retried');
    for (const p of lost) p.reject(new FreshetError(ErrorCodes.pageWorker, 'retryable', `page worker thread ${slot.index} exited (code ${exitCode}) while reading the page`));
    this.start(slot);
    this.dispatch();
  }
}

/**
 * A page's DOM and its extraction die young; the old generation is kept to 256 MiB, where V8's
 * defaults let a thread's heap swell with garbage between collections (peak RSS of the HTML
 * benchmark with one thread: 422 MiB with V8's defaults, ~305 with a 16 MiB young generation, ~335
 * with 48). The young generation is 8 MiB, started at that size (`spawnThread`): with pages of
 * 9.5 MB a 16 MiB one started at its size peaked at 384 MiB against 371 (`npm run bench memory`,
 * 200 pages), at the same pages/s. A page too big for the heap ends its thread: the page fails as
 * retryable and the thread restarts.
 */
const PAGE_WORKER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 };

/**
 * No allocation-site pretenuring. When enough of what one place in the code allocates survives a
 * scavenge (a page's DOM nodes do while the page is being read), V8 starts allocating it straight
 * into the old generation, for every page after: each page's DOM then dies there and costs full
 * collections. Whether that happened early in a run decided which of two speeds the HTML
 * throughput bench ran at (~1,000 pages/s at 1.4 CPU s per 1,000 pages, or ~725 at 1.95) from
 * one launch to the next; without it ten runs in a row were fast, at ~20 MiB less RSS. The flag is
 * V8's, so the main thread's collections go without it too once a page thread exists.
 */
const PAGE_WORKER_V8_FLAGS = ['--no-allocation-site-pretenuring'];

/** The page thread: the compiled entry beside this file, or its TypeScript source under the test runner. */
export function spawnPageWorker(init: PageWorkInit): Worker {
  return spawnThread(__dirname, 'page-worker', init, PAGE_WORKER_LIMITS, PAGE_WORKER_V8_FLAGS);
}
