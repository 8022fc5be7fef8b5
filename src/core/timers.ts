import { setTimeout as nodeSleep } from 'node:timers/promises';
import { z } from 'zod';

/**
 * Node keeps a timer delay in a signed 32-bit integer: anything above 2^31−1 ms (~24.8 days)
 * becomes 1 ms, with only a warning. Every timer in freshet goes through these helpers, and every
 * duration a timer uses is validated against this bound where config enters.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;
export const MAX_TIMER_SECS = Math.floor(MAX_TIMER_MS / 1000);

/** A delay Node will keep as given: NaN and negatives are 0, the rest at most MAX_TIMER_MS. */
export function clampTimerMs(ms: number): number {
  if (!(ms > 0)) return 0;
  return Math.min(ms, MAX_TIMER_MS);
}

export interface Timer {
  clear(): void;
}

/**
 * `setTimeout` that keeps delays of any length: past MAX_TIMER_MS it re-arms until the whole
 * delay has passed (a 30-day `--duration-secs` stops after 30 days, not after 1 ms).
 */
export function setTimer(fn: () => void, ms: number): Timer {
  let remaining = ms > 0 ? ms : 0;
  let handle: NodeJS.Timeout;
  const arm = (): void => {
    const step = clampTimerMs(remaining);
    handle = setTimeout(() => {
      remaining -= step;
      if (remaining > 0) arm();
      else fn();
    }, step);
  };
  arm();
  return { clear: () => clearTimeout(handle) };
}

/** `setInterval` with its period clamped to what Node keeps (at least 1 ms). */
export function setRepeating(fn: () => void, ms: number): NodeJS.Timeout {
  return setInterval(fn, Math.max(1, clampTimerMs(ms)));
}

/** `await sleep(ms)` with the delay clamped; rejects with the signal's reason when aborted. */
export function sleepMs(ms: number, signal?: AbortSignal): Promise<void> {
  return nodeSleep(clampTimerMs(ms), undefined, signal ? { signal } : undefined);
}

const tooLong = (unit: string, max: number): string => `at most ${max.toLocaleString('en-US')} ${unit} (about 24.8 days, the longest delay a Node.js timer keeps)`;

/** A pipeline duration in milliseconds that a timer waits for. */
export function timerMs(min: number): z.ZodNumber {
  return z.number().int().min(min).max(MAX_TIMER_MS, tooLong('ms', MAX_TIMER_MS));
}

/** A pipeline duration in seconds that a timer waits for (fractions allowed). */
export function timerSecs(min: number): z.ZodNumber {
  return z.number().min(min).max(MAX_TIMER_SECS, tooLong('seconds', MAX_TIMER_SECS));
}
