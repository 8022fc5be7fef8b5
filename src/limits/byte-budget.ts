import { ErrorCodes, FreshetError } from '../core/errors';

interface Waiter {
  hold: ByteHold;
  bytes: number;
  /** What the hold had when it began to wait (counted in `heldByWaiters`). */
  held: number;
  grant(): void;
  /** The hold was released while this waited: the wait ends, unanswered (its reader is gone). */
  cancel(): void;
}

/**
 * The bytes a run may hold in flight (`max_bytes_in_flight`): response bodies as they are read
 * and while their pages are parsed. Credits bound the jobs in flight; this bounds what they weigh,
 * so 64 pages of 10 MB wait for room instead of taking the process's memory.
 *
 * Requests for room are served by the age of their holder: a body being read goes on before one
 * that began later, whichever asked last (a large body is not starved by small ones, and bodies
 * are finished one after another rather than all read a little at a time). A holder waiting for
 * more never waits on itself: when every byte in use belongs to holders that are waiting, nothing
 * else could free any, and the oldest is let through over the limit, alone, until it is released
 * (partly read bodies would otherwise wait for each other forever; a body larger than the whole
 * budget goes through alone). Letting each waiter in turn through instead took 32 MiB to 93 with
 * a few 9.5 MB bodies left (issue 24). `charge` counts bytes that exist already, without waiting.
 */
export class ByteBudget {
  private used = 0;
  /** Bytes held by holders that wait for more. */
  private heldByWaiters = 0;
  private readonly queue: Waiter[] = [];
  /** The one holder let through over the limit, until it is released. */
  private through: ByteHold | undefined;
  private holds = 0;
  /** Peak of `inUse`, for the benchmark and the tests. */
  peak = 0;

  /** `limitBytes` 0: no limit (everything is granted at once, still counted). */
  constructor(readonly limitBytes: number) {}

  get inUse(): number {
    return this.used;
  }

  /** A holder of bytes that grows as it needs and gives back everything at once. */
  hold(signal?: AbortSignal): ByteHold {
    return new ByteHold(this, signal, ++this.holds);
  }

  /** Charges bytes that exist already (a document): never waits. */
  charge(bytes: number): void {
    this.add(bytes);
  }

  /** Gives back bytes charged with `charge` (or held). */
  free(bytes: number): void {
    if (bytes <= 0) return;
    this.used -= bytes;
    if (this.used < 0) throw new Error('byte budget: freed more than was charged');
    this.pump();
  }

  /** @internal ByteHold's growth: undefined when granted at once. */
  request(hold: ByteHold, bytes: number): Promise<void> | undefined {
    if (hold === this.through || (this.queue.length === 0 && (this.limitBytes === 0 || this.used + bytes <= this.limitBytes))) {
      this.add(bytes);
      return undefined;
    }
    return new Promise<void>((resolve, reject) => {
      const w: Waiter = {
        hold, bytes, held: hold.bytes,
        grant: () => {
          hold.signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        cancel: () => {
          hold.signal?.removeEventListener('abort', onAbort);
          reject(new FreshetError(ErrorCodes.fetchAborted, 'retryable', 'wait for memory given up: the visit ended'));
        },
      };
      const onAbort = (): void => {
        if (!this.unqueue(w)) return;
        reject(new FreshetError(ErrorCodes.fetchAborted, 'retryable', 'wait for memory aborted: the run is stopping'));
        this.pump();
      };
      hold.signal?.addEventListener('abort', onAbort, { once: true });
      // Behind the older holders' requests, ahead of the younger ones'.
      let at = this.queue.length;
      while (at > 0 && this.queue[at - 1]!.hold.age > hold.age) at--;
      this.queue.splice(at, 0, w);
      this.heldByWaiters += hold.bytes;
      // The holders ahead may be the only ones holding anything: let the first through.
      this.pump();
    });
  }

  /** @internal A released hold's waits leave the queue, so no bytes are granted to a holder that is gone. */
  withdraw(hold: ByteHold): void {
    if (this.through === hold) this.through = undefined;
    for (const w of this.queue.filter((x) => x.hold === hold)) {
      this.unqueue(w);
      w.cancel();
    }
  }

  private unqueue(w: Waiter): boolean {
    const i = this.queue.indexOf(w);
    if (i < 0) return false;
    this.queue.splice(i, 1);
    this.heldByWaiters -= w.held;
    return true;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const w = this.queue[0]!;
      const room = this.limitBytes === 0 || this.used + w.bytes <= this.limitBytes;
      // Everything in use is held by waiting holders: none will free any until one goes on.
      const stuck = this.through === undefined && this.used - this.heldByWaiters <= 0;
      if (!room && !stuck) return;
      if (!room) this.through = w.hold;
      this.queue.shift();
      this.heldByWaiters -= w.held;
      this.add(w.bytes);
      w.hold.granted(w.bytes);
      w.grant();
    }
  }

  private add(bytes: number): void {
    this.used += bytes;
    if (this.used > this.peak) this.peak = this.used;
  }
}

/**
 * One request's share of the budget: `cover(n)` makes sure `n` bytes are held (waiting for room
 * when the budget is spent), `release()` gives them all back.
 */
export class ByteHold {
  /** Bytes held (granted). */
  bytes = 0;
  private released = false;

  /** `age`: the order holders were made in (lower is older), which their requests are served in. */
  constructor(private readonly budget: ByteBudget, readonly signal: AbortSignal | undefined, readonly age = 0) {}

  /** Holds at least `total` bytes; undefined when that is held already or granted at once. */
  cover(total: number): Promise<void> | undefined {
    if (this.released) throw new Error('byte hold used after release');
    const more = Math.ceil(total) - this.bytes;
    if (more <= 0) return undefined;
    if (this.signal?.aborted) return Promise.reject(new FreshetError(ErrorCodes.fetchAborted, 'retryable', 'wait for memory aborted: the run is stopping'));
    const wait = this.budget.request(this, more);
    if (wait === undefined) this.bytes += more;
    return wait;
  }

  /**
   * Gives back every byte held, the hold staying open (an attempt failed and its bytes are
   * dropped; the retry asks again, in this hold's turn). A wait still queued is given up.
   */
  giveBack(): void {
    if (this.released) return;
    this.budget.withdraw(this);
    const n = this.bytes;
    this.bytes = 0;
    this.budget.free(n);
  }

  /** @internal Called by the budget when a waiting request is granted. */
  granted(bytes: number): void {
    this.bytes += bytes;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.withdraw(this);
    const n = this.bytes;
    this.bytes = 0;
    this.budget.free(n);
  }
}
