import { EventEmitter, setMaxListeners } from 'node:events';
import { clampTimerMs } from '../core/timers';

/**
 * The attempt's signal as undici takes it besides an AbortSignal: an EventEmitter with `aborted`
 * and `reason`. undici adds and removes an abort listener on every request, and on an AbortSignal
 * (an EventTarget) that pair cost about 1 % of freshet's CPU per page; on an emitter it is a push
 * and a splice.
 */
export class AbortEmitter extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  constructor() {
    super();
    this.setMaxListeners(0);
  }

  abortWith(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

export interface AttemptSignal {
  signal: AbortSignal;
  /** The same abort for undici's dispatcher (see AbortEmitter); aborted whenever `signal` is. */
  dispatchSignal: AbortSignal | AbortEmitter;
  /** Whether the wall-clock cap (not the caller) ended the attempt. */
  timedOut: () => boolean;
  /** Releases the attempt's hold on the shared deadline; call once the attempt settles. */
  done: () => void;
}

/** The window attempts may still join; replaced once it closes. */
let current: Deadline | undefined;

/**
 * Attempts that start close together with the same caller signal and cap share one deadline: one
 * AbortController, one timer and one listener on the caller's signal, instead of one each per
 * attempt (~5 µs of CPU per attempt down to ~1 with undici's listener: ~1 % of freshet's CPU per
 * page). The deadline is set one window after the first attempt's cap, so none ends before its own
 * cap and none more than a window after it.
 */
class Deadline {
  readonly ac = new AbortController();
  readonly emitter = new AbortEmitter();
  fired = false;
  /** Attempts not yet done. */
  holders = 0;
  /** Until when (ms, performance.now) later attempts may join. */
  readonly joinUntilMs: number;
  private readonly timer: NodeJS.Timeout;
  private readonly onOuter?: () => void;

  constructor(readonly outer: AbortSignal | undefined, readonly totalTimeoutMs: number, nowMs: number, windowMs: number) {
    this.joinUntilMs = nowMs + windowMs;
    // Every attempt of the window listens on this one signal (undici adds its own listener).
    setMaxListeners(0, this.ac.signal);
    // One listener per window forwards the abort (timeout or caller) to the requests' emitter.
    this.ac.signal.addEventListener('abort', () => this.emitter.abortWith(this.ac.signal.reason), { once: true });
    this.timer = setTimeout(() => {
      this.fired = true;
      this.ac.abort();
    }, clampTimerMs(totalTimeoutMs + windowMs));
    if (outer) {
      this.onOuter = () => this.ac.abort(outer.reason);
      outer.addEventListener('abort', this.onOuter, { once: true });
    }
  }

  release(): void {
    this.holders -= 1;
    // Nothing holds it: free the timer now rather than keep it (and the process) alive for the cap.
    if (this.holders === 0) {
      this.dispose();
      if (current === this) current = undefined;
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (this.onOuter) this.outer?.removeEventListener('abort', this.onOuter);
  }
}

/** The window: 1 % of the cap, at most 100 ms, so the cap stays within 1 % (or 100 ms) of its value. */
function windowFor(totalTimeoutMs: number): number {
  return Math.min(100, Math.floor(totalTimeoutMs / 100));
}


/**
 * A per-attempt signal: the caller's, plus a wall-clock cap. undici's body timeout only measures
 * idle time, so a body trickling a byte at a time would otherwise hold a slot forever.
 */
export function startAttempt(outer: AbortSignal | undefined, totalTimeoutMs: number): AttemptSignal {
  if (outer?.aborted) {
    const ac = new AbortController();
    ac.abort(outer.reason);
    return { signal: ac.signal, dispatchSignal: ac.signal, timedOut: () => false, done: () => undefined };
  }
  const nowMs = performance.now();
  let d = current;
  if (!d || d.outer !== outer || d.totalTimeoutMs !== totalTimeoutMs || nowMs >= d.joinUntilMs || d.ac.signal.aborted) {
    // The window being replaced is disposed of by its last holder.
    d = new Deadline(outer, totalTimeoutMs, nowMs, windowFor(totalTimeoutMs));
    current = d;
  }
  d.holders += 1;
  const deadline = d;
  let released = false;
  return {
    signal: deadline.ac.signal,
    dispatchSignal: deadline.emitter,
    timedOut: () => deadline.fired,
    done: () => {
      if (released) return;
      released = true;
      deadline.release();
    },
  };
}
