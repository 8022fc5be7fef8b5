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
  /** The window's signal (for waits before the request is sent, such as a redirect's slot). */
  signal: AbortSignal;
  /** The attempt's own abort for undici's dispatcher (see AbortEmitter): the cap, less its pauses, or the caller. */
  dispatchSignal: AbortSignal | AbortEmitter;
  /** Whether the wall-clock cap (not the caller) ended the attempt. */
  timedOut: () => boolean;
  /**
   * Stops the attempt's clock while it waits for something that is not the origin (room in the
   * run's byte budget for the body): a body paused for memory is not a slow origin, and counting
   * that wait against the cap timed out every read queued behind a few big pages (issue 24).
   * Nestable; each `pause` needs one `resume`.
   */
  pause: () => void;
  resume: () => void;
  /** Releases the attempt's hold on the shared deadline; call once the attempt settles. */
  done: () => void;
}

/**
 * Attempts that start close together with the same caller signal and cap share one deadline: one
 * AbortController, one timer and one listener on the caller's signal, instead of one each per
 * attempt (~5 µs of CPU per attempt down to ~1 with undici's listener: ~1 % of freshet's CPU per
 * page). The deadline is set one window after the first attempt's cap, so none ends before its own
 * cap and none more than a window after it. An attempt that pauses leaves the window and keeps
 * the rest of its cap on a timer of its own.
 */
class Deadline {
  readonly ac = new AbortController();
  fired = false;
  /** Attempts not yet done nor paused. */
  readonly holders = new Set<Attempt>();
  /** Until when (ms, performance.now) later attempts may join. */
  readonly joinUntilMs: number;
  /** When the timer fires (ms, performance.now). */
  readonly endsAtMs: number;
  private readonly timer: NodeJS.Timeout;
  private readonly onOuter?: () => void;

  constructor(
    private readonly owner: AttemptWindows,
    readonly outer: AbortSignal | undefined,
    readonly totalTimeoutMs: number,
    nowMs: number,
    windowMs: number,
  ) {
    this.joinUntilMs = nowMs + windowMs;
    this.endsAtMs = nowMs + totalTimeoutMs + windowMs;
    // Every attempt of the window listens on this one signal (undici adds its own listener).
    setMaxListeners(0, this.ac.signal);
    // One listener per window forwards the abort (timeout or caller) to its attempts' emitters.
    this.ac.signal.addEventListener('abort', () => {
      for (const a of this.holders) a.end(this.ac.signal.reason, this.fired);
    }, { once: true });
    this.timer = setTimeout(() => {
      this.fired = true;
      this.ac.abort();
    }, clampTimerMs(totalTimeoutMs + windowMs));
    if (outer) {
      this.onOuter = () => this.ac.abort(outer.reason);
      outer.addEventListener('abort', this.onOuter, { once: true });
    }
  }

  release(a: Attempt): void {
    if (!this.holders.delete(a)) return;
    // Nothing holds it: free the timer now rather than keep it (and the process) alive for the cap.
    if (this.holders.size === 0) {
      this.dispose();
      this.owner.closed(this);
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    if (this.onOuter) this.outer?.removeEventListener('abort', this.onOuter);
  }
}

/** One attempt: in its window until it pauses, then on a timer of its own for the rest of its cap. */
class Attempt {
  readonly emitter = new AbortEmitter();
  private window: Deadline | undefined;
  private fired = false;
  private paused = 0;
  /** Cap left (ms) when paused; when it ends (performance.now) once on its own timer. */
  private leftMs = 0;
  private endsAtMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private onOuter: (() => void) | undefined;
  private finished = false;

  constructor(window: Deadline, private readonly outer: AbortSignal | undefined) {
    this.window = window;
    window.holders.add(this);
  }

  timedOut(): boolean {
    return this.fired;
  }

  end(reason: unknown, byTimer: boolean): void {
    if (this.emitter.aborted) return;
    this.fired = byTimer;
    this.emitter.abortWith(reason);
  }

  pause(): void {
    if (this.paused++ > 0 || this.finished || this.emitter.aborted) return;
    const nowMs = performance.now();
    if (this.window) {
      this.leftMs = Math.max(0, this.window.endsAtMs - nowMs);
      this.window.release(this);
      this.window = undefined;
      if (this.outer) {
        const outer = this.outer;
        this.onOuter = () => this.end(outer.reason, false);
        outer.addEventListener('abort', this.onOuter, { once: true });
      }
    } else {
      this.leftMs = Math.max(0, this.endsAtMs - nowMs);
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  resume(): void {
    if (this.paused === 0 || --this.paused > 0 || this.finished || this.emitter.aborted) return;
    this.endsAtMs = performance.now() + this.leftMs;
    this.timer = setTimeout(() => this.end(new Error('attempt timed out'), true), clampTimerMs(this.leftMs));
  }

  done(): void {
    if (this.finished) return;
    this.finished = true;
    this.window?.release(this);
    this.window = undefined;
    clearTimeout(this.timer);
    if (this.onOuter) this.outer?.removeEventListener('abort', this.onOuter);
  }
}

/** The window: 1 % of the cap, at most 100 ms, so the cap stays within 1 % (or 100 ms) of its value. */
function windowFor(totalTimeoutMs: number): number {
  return Math.min(100, Math.floor(totalTimeoutMs / 100));
}

const NO_OP = (): void => undefined;

/**
 * Per-attempt signals: the caller's, plus a wall-clock cap. undici's body timeout only measures
 * idle time, so a body trickling a byte at a time would otherwise hold a slot forever. Each
 * fetcher owns one, so windows are never shared between fetchers (or tests).
 */
export class AttemptWindows {
  /** The window attempts may still join; replaced once it closes. */
  private current: Deadline | undefined;

  start(outer: AbortSignal | undefined, totalTimeoutMs: number): AttemptSignal {
    if (outer?.aborted) {
      const ac = new AbortController();
      ac.abort(outer.reason);
      return { signal: ac.signal, dispatchSignal: ac.signal, timedOut: () => false, pause: NO_OP, resume: NO_OP, done: NO_OP };
    }
    const nowMs = performance.now();
    let d = this.current;
    if (!d || d.outer !== outer || d.totalTimeoutMs !== totalTimeoutMs || nowMs >= d.joinUntilMs || d.ac.signal.aborted) {
      // The window being replaced is disposed of by its last holder.
      d = new Deadline(this, outer, totalTimeoutMs, nowMs, windowFor(totalTimeoutMs));
      this.current = d;
    }
    const a = new Attempt(d, outer);
    return {
      signal: d.ac.signal,
      dispatchSignal: a.emitter,
      timedOut: () => a.timedOut(),
      pause: () => a.pause(),
      resume: () => a.resume(),
      done: () => a.done(),
    };
  }

  /** Whether a window is open for joining (tests). */
  get open(): boolean {
    return this.current !== undefined;
  }

  /** Called by a window whose last holder left. */
  closed(d: Deadline): void {
    if (this.current === d) this.current = undefined;
  }
}
