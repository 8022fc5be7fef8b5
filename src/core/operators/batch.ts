import { Observable, type OperatorFunction } from 'rxjs';
import { clampTimerMs } from '../timers';

export interface BatchOptions<T> {
  maxCount: number;
  maxBytes: number;
  maxWaitMs: number;
  sizeOf(item: T): number;
  /** Closes the open batch whenever this emits (the upstream waits on it). */
  flushRequests?: Observable<unknown>;
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
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (batch.length === 0) return;
      const out = batch;
      batch = [];
      bytes = 0;
      subscriber.next(out);
    };
    const requests = opts.flushRequests?.subscribe(() => flush());
    const sub = source.subscribe({
      next(item) {
        const size = opts.sizeOf(item);
        if (batch.length > 0 && bytes + size > opts.maxBytes) flush();
        batch.push(item);
        bytes += size;
        if (batch.length >= opts.maxCount || bytes >= opts.maxBytes) flush();
        else if (!timer) timer = setTimeout(flush, clampTimerMs(opts.maxWaitMs));
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
      sub.unsubscribe();
    };
  });
}
