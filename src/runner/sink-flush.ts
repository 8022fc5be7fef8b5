/**
 * Tells the sink to send what it holds when the jobs in flight wait on it: half the credits' jobs
 * finished their visit since the last request, or no visit is open any more (no document can
 * come until the sink settles some). Without it a crawl of one document per job would wait for
 * the sink's flush interval with all its credits spent.
 *
 * It counts open visits, not credits: a settled job keeps its credit until its ack returns, and a
 * deferred job never visits, so counting credits missed the moment the last open visit ended (the
 * crawl then stalled until the flush interval).
 */
export class SinkFlushTrigger {
  /** Visits started and not yet ended (they may still emit documents). */
  private visiting = 0;
  private sinceRequest = 0;

  constructor(private readonly creditLimit: number, private readonly flush: (() => void) | undefined) {}

  /** A job's visit began. */
  started(): void {
    this.visiting += 1;
  }

  /** A job's visit ended (it emits no more documents). */
  sealed(): void {
    this.visiting -= 1;
    this.sinceRequest += 1;
    if (!this.flush) return;
    if (this.sinceRequest >= Math.ceil(this.creditLimit / 2) || this.visiting === 0) {
      this.sinceRequest = 0;
      // After the documents the stages may still hand on in this turn of the event loop.
      setImmediate(this.flush);
    }
  }
}
