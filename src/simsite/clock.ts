import type { Clock } from '../core/clock';

/**
 * Simulated time that starts at `startMs` and runs `speed` times faster than the real clock it
 * reads (speed 3600 = one simulated hour per real second). Speed 1 is plain real time shifted to startMs.
 * It can be pushed forward or re-geared at runtime, never turned back.
 */
export class AcceleratedClock implements Clock {
  private baseRealMs: number;
  private baseSimMs: number;
  private speed: number;

  constructor(startMs: number, speed: number, private readonly real: Clock) {
    if (!(speed > 0)) throw new RangeError('speed must be positive');
    this.baseRealMs = real.nowMs();
    this.baseSimMs = startMs;
    this.speed = speed;
  }

  nowMs(): number {
    return Math.floor(this.baseSimMs + (this.real.nowMs() - this.baseRealMs) * this.speed);
  }

  /** How many simulated ms pass per real ms. */
  get speedFactor(): number {
    return this.speed;
  }

  /** Jumps ahead (e.g. to let a day of posts appear at once). */
  advanceMs(deltaMs: number): void {
    if (!(deltaMs >= 0)) throw new RangeError('a clock does not go backwards');
    this.rebase();
    this.baseSimMs += deltaMs;
  }

  /** Changes the speed from now on; the simulated time so far is kept. */
  setSpeed(speed: number): void {
    if (!(speed > 0)) throw new RangeError('speed must be positive');
    this.rebase();
    this.speed = speed;
  }

  private rebase(): void {
    const now = this.nowMs();
    this.baseRealMs = this.real.nowMs();
    this.baseSimMs = now;
  }
}
