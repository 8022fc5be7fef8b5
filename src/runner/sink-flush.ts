import type { Credits } from './credits';

/**
 * Tells the sink to send what it holds when the jobs in flight wait on it: half the credits' jobs
 * finished their visit since the last request, or every job in flight did (no document can come
 * until the sink settles some). Without it a crawl of one document per job would wait for the
 * sink's flush interval with all its credits spent.
 */
export class SinkFlushTrigger {
  /** Jobs whose visit ended and whose documents are not all settled yet. */
  private waiting = 0;
  private sinceRequest = 0;

  constructor(private readonly credits: Credits, private readonly flush: (() => void) | undefined) {}

  /** A job's visit ended (it emits no more documents). */
  sealed(): void {
    this.waiting += 1;
    this.sinceRequest += 1;
    if (!this.flush) return;
    if (this.sinceRequest >= Math.ceil(this.credits.limit / 2) || this.waiting >= this.credits.used) {
      this.sinceRequest = 0;
      // After the documents the stages may still hand on in this turn of the event loop.
      setImmediate(this.flush);
    }
  }

  /** A sealed job's documents are all settled. */
  settled(): void {
    this.waiting -= 1;
  }
}
