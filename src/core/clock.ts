/** Time is injected so schedulers and tests can run on a simulated or frozen clock. */
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

/** A clock that moves only when told to; for tests and simulations. */
export class ManualClock implements Clock {
  private current: number;
  constructor(startMs = 0) {
    this.current = startMs;
  }
  nowMs(): number {
    return this.current;
  }
  advanceMs(deltaMs: number): void {
    if (deltaMs < 0) throw new RangeError('a clock does not go backwards');
    this.current += deltaMs;
  }
  setMs(ms: number): void {
    if (ms < this.current) throw new RangeError('a clock does not go backwards');
    this.current = ms;
  }
}
