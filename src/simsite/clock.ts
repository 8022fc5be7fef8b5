import type { Clock } from '../core/clock';

/**
 * Simulated time that starts at `startMs` and runs `speed` times faster than the real clock it
 * reads (speed 3600 = one simulated hour per real second). Speed 1 is plain real time shifted to startMs.
 */
export class AcceleratedClock implements Clock {
  private readonly realStartMs: number;
  constructor(
    private readonly startMs: number,
    private readonly speed: number,
    private readonly real: Clock,
  ) {
    if (!(speed > 0)) throw new RangeError('speed must be positive');
    this.realStartMs = real.nowMs();
  }

  nowMs(): number {
    return Math.floor(this.startMs + (this.real.nowMs() - this.realStartMs) * this.speed);
  }

  /** How many simulated ms pass per real ms. */
  get speedFactor(): number {
    return this.speed;
  }
}
