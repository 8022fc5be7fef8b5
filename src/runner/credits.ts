/**
 * Credits bound the work in flight. A claimed job takes a fetch credit: the source claims only
 * while fetch credits are free. Once its visit ended (every document handed on to the stages and
 * the sink), the job may move to a settling credit, if one is free, and give its fetch credit
 * back: the next visit fetches while the sink indexes the documents before it, instead of fetch
 * concurrency idling through each bulk flush. The job keeps its lease and is acknowledged only
 * once its documents are settled, as before; the settling credit returns at that ack. Jobs
 * claimed and not acknowledged are at most `limit + settlingLimit`: that keeps memory flat when
 * the sink slows or stops (the settling credits run out, then the fetch credits do).
 */
export class Credits {
  private fetching = 0;
  private settling = 0;
  private waiters: (() => void)[] = [];

  constructor(readonly limit: number, readonly settlingLimit = 0) {}

  /** Jobs claimed and not yet acknowledged (visiting or settling). */
  get used(): number {
    return this.fetching + this.settling;
  }

  /** Jobs whose visit ended and that wait on the sink for their ack, their fetch credit given back. */
  get settlingUsed(): number {
    return this.settling;
  }

  /** Fetch credits free: how many more jobs may be claimed now. */
  get free(): number {
    return this.limit - this.fetching;
  }

  take(n: number): void {
    if (n > this.free) throw new Error(`taking ${n} credits with ${this.free} free`);
    this.fetching += n;
  }

  /**
   * A job's visit ended: trade its fetch credit for a settling one if one is free (true), or
   * keep the fetch credit until its ack (false: the sink is behind, claims wait for it).
   */
  settle(): boolean {
    if (this.settling >= this.settlingLimit) return false;
    if (this.fetching < 1) throw new Error('settling a job that holds no fetch credit');
    this.fetching -= 1;
    this.settling += 1;
    this.wake();
    return true;
  }

  /** A job was acknowledged: its credit (fetch, or settling if it moved to one) is free again. */
  release(n = 1, settling = false): void {
    if (settling) this.settling -= n;
    else this.fetching -= n;
    if (this.fetching < 0 || this.settling < 0) throw new Error('released more credits than taken');
    this.wake();
  }

  /** Resolves at the next release (or at once if `atLeast` fetch credits are free). */
  whenFree(atLeast = 1): Promise<void> {
    if (this.free >= atLeast) return Promise.resolve();
    return new Promise((r) => this.waiters.push(r));
  }

  /** Resolves when nothing is in flight. */
  async drained(): Promise<void> {
    while (this.used > 0) await new Promise<void>((r) => this.waiters.push(r));
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const wake of w) wake();
  }
}
