export interface AttemptSignal {
  signal: AbortSignal;
  /** Whether the wall-clock cap (not the caller) ended the attempt. */
  timedOut: () => boolean;
  /** Clears the timer and the listener on the caller's signal; call once the attempt settles. */
  done: () => void;
}

/**
 * A per-attempt signal: the caller's, plus a wall-clock cap. undici's body timeout only measures
 * idle time, so a body trickling a byte at a time would otherwise hold a slot forever.
 */
export function startAttempt(outer: AbortSignal | undefined, totalTimeoutMs: number): AttemptSignal {
  const ac = new AbortController();
  let fired = false;
  const timer = setTimeout(() => {
    fired = true;
    ac.abort();
  }, totalTimeoutMs);
  const onOuter = (): void => ac.abort(outer?.reason);
  if (outer) {
    if (outer.aborted) ac.abort(outer.reason);
    else outer.addEventListener('abort', onOuter, { once: true });
  }
  return {
    signal: ac.signal,
    timedOut: () => fired,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}
