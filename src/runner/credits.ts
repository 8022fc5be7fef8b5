/**
 * Credits bound the work in flight: the source claims only while credits are free, the ack of a
 * job gives its credit back. This is what keeps memory flat when the sink slows or stops.
 */
export class Credits {
  private inUse = 0;
  private waiters: (() => void)[] = [];

  constructor(readonly limit: number) {}

  get used(): number {
    return this.inUse;
  }

  get free(): number {
    return this.limit - this.inUse;
  }

  take(n: number): void {
    if (n > this.free) throw new Error(`taking ${n} credits with ${this.free} free`);
    this.inUse += n;
  }

  release(n = 1): void {
    this.inUse -= n;
    if (this.inUse < 0) throw new Error('released more credits than taken');
    const w = this.waiters;
    this.waiters = [];
    for (const wake of w) wake();
  }

  /** Resolves at the next release (or at once if credits are free). */
  whenFree(): Promise<void> {
    if (this.free > 0) return Promise.resolve();
    return new Promise((r) => this.waiters.push(r));
  }

  /** Resolves when nothing is in flight. */
  async drained(): Promise<void> {
    while (this.inUse > 0) await new Promise<void>((r) => this.waiters.push(r));
  }
}
