import { Observable, type OperatorFunction } from 'rxjs';
import { clampTimerMs } from '../timers';

export interface BatchOptions<T> {
  maxCount: number;
  maxBytes: number;
  maxWaitMs: number;
  sizeOf(item: T): number;
  /** Closes the open batch whenever this emits (the upstream waits on it). */
  flushRequests?: Observable<unknown>;
  /**
   * The consumer's room: while `busy()` (every request slot taken), a flush request or the time
   * limit leaves the batch open, so that it keeps taking items, and it is closed when `freed`
   * emits (a slot came free). A closed batch would only wait for that slot anyway, and the items
   * that came meanwhile would wait for the next flush: held open, they go with it. The count and
   * byte limits still close a batch at once.
   */
  room?: { busy(): boolean; freed: Observable<unknown> };
}

/**
 * Groups items into batches closed by count, by bytes or by time since the batch's first item,
 * whichever comes first. Holds at most one open batch: its bound is the upstream's (credit-limited)
 * rate, never an unbounded buffer.
 */
export function batchBy<T>(opts: BatchOptions<T>): OperatorFunction<T, T[]> {
  return (source) => new Observable<T[]>((subscriber) => {
    let batch: T[] = [];
    let bytes = 0;
    let timer: NodeJS.Timeout | undefined;
    /** A flush (requested or timed) waits for a free slot. */
    let deferred = false;
    const flush = () => {
      deferred = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (batch.length === 0) return;
      const out = batch;
      batch = [];
      bytes = 0;
      subscriber.next(out);
    };
    const soon = () => {
      if (opts.room?.busy()) {
        deferred = true;
        if (timer) clearTimeout(timer);
        timer = undefined;
      } else flush();
    };
    const requests = opts.flushRequests?.subscribe(soon);
    const freed = opts.room?.freed.subscribe(() => {
      if (deferred) flush();
    });
    const sub = source.subscribe({
      next(item) {
        const size = opts.sizeOf(item);
        if (batch.length > 0 && bytes + size > opts.maxBytes) flush();
        batch.push(item);
        bytes += size;
        if (batch.length >= opts.maxCount || bytes >= opts.maxBytes) flush();
        else if (!timer && !deferred) timer = setTimeout(soon, clampTimerMs(opts.maxWaitMs));
      },
      error(err) {
        flush();
        subscriber.error(err);
      },
      complete() {
        flush();
        subscriber.complete();
      },
    });
    return () => {
      if (timer) clearTimeout(timer);
      requests?.unsubscribe();
      freed?.unsubscribe();
      sub.unsubscribe();
    };
  });
}
