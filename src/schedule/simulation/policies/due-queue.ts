/**
 * An in-memory stand-in for the due ZSET: a binary min-heap of (due time, subject) with lazy
 * deletion, so that rescheduling a subject is a push and stale entries are skipped when popped.
 */
export class DueQueue {
  private keys: Float64Array;
  private ids: Int32Array;
  private size = 0;
  private readonly dueMs: Float64Array;
  /** The earliest a spare-budget fill may pull each subject forward to. */
  private readonly notBeforeMs: Float64Array;
  /** The interval each due time was planned for (due − last visit; 0 when not given). */
  private readonly intervalMs: Float64Array;
  private latenessSumMs = 0;
  private intervalSumMs = 0;
  /** Each taken visit's lateness over its planned interval (visits planned with none add nothing). */
  private relativeSum = 0;
  private taken = 0;

  constructor(subjects: number) {
    this.keys = new Float64Array(Math.max(16, subjects * 2));
    this.ids = new Int32Array(this.keys.length);
    this.dueMs = new Float64Array(subjects).fill(Number.NaN);
    this.notBeforeMs = new Float64Array(subjects);
    this.intervalMs = new Float64Array(subjects);
  }

  get length(): number {
    return this.size;
  }

  /** Share of subjects due by `nowMs` (stale entries excluded). */
  overdueShare(nowMs: number): number {
    return this.dueMs.length > 0 ? this.overdueCount(nowMs) / this.dueMs.length : 0;
  }

  /** Subjects due by `nowMs` (stale entries excluded). */
  overdueCount(nowMs: number): number {
    let n = 0;
    for (let id = 0; id < this.dueMs.length; id++) if (this.dueMs[id]! <= nowMs) n++;
    return n;
  }

  /**
   * Since the last call: the mean lateness (taken − due; negative when pulled forward) and the mean
   * interval the taken visits were planned for, in hours, and the mean of each visit's lateness in its own interval (0, NaN and 0 when none were
   * taken): lateness means little except against the intervals.
   */
  drainLateness(): { latenessHours: number; intervalHours: number; latenessInIntervals: number } {
    const out = this.taken > 0
      ? { latenessHours: this.latenessSumMs / this.taken / 3_600_000, intervalHours: this.intervalSumMs / this.taken / 3_600_000, latenessInIntervals: this.relativeSum / this.taken }
      : { latenessHours: 0, intervalHours: Number.NaN, latenessInIntervals: 0 };
    this.relativeSum = 0;
    this.latenessSumMs = 0;
    this.intervalSumMs = 0;
    this.taken = 0;
    return out;
  }

  dueOf(id: number): number {
    return this.dueMs[id]!;
  }

  /** `notBeforeMs`: the earliest a fill may take it (default: any time); `fromMs`: the visit the interval runs from. */
  schedule(id: number, dueMs: number, notBeforeMs = Number.NEGATIVE_INFINITY, fromMs = dueMs): void {
    if (!Number.isFinite(dueMs)) throw new RangeError(`subject ${id} gets a due time that is not finite: ${dueMs}`);
    this.dueMs[id] = dueMs;
    this.notBeforeMs[id] = notBeforeMs;
    this.intervalMs[id] = Math.max(0, dueMs - fromMs);
    this.push(id, dueMs);
  }

  private push(id: number, dueMs: number): void {
    if (this.size >= 4 * this.dueMs.length + 16) this.compact();
    if (this.size === this.keys.length) this.grow();
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.keys[parent]! <= dueMs) break;
      this.keys[i] = this.keys[parent]!;
      this.ids[i] = this.ids[parent]!;
      i = parent;
    }
    this.keys[i] = dueMs;
    this.ids[i] = id;
  }

  /**
   * Takes up to `max` subjects: first those due by `nowMs`, earliest first; then, when `fill` is set,
   * the next ones due (`takeFill`), so that budget left over in a quiet minute is spent on the
   * nearest visits instead of being lost. Taken subjects leave the queue until scheduled again.
   */
  take(nowMs: number, max: number, fill: boolean, out: number[]): void {
    out.length = 0;
    while (out.length < max && this.size > 0) {
      const key = this.keys[0]!;
      const id = this.ids[0]!;
      if (key !== this.dueMs[id]) {
        this.popRoot();
        continue;
      }
      if (key > nowMs) break;
      this.takeRoot(nowMs, out);
    }
    if (fill && out.length < max) {
      const more: number[] = [];
      this.takeFill(nowMs, max - out.length, 256, more);
      for (const id of more) out.push(id);
    }
  }

  /**
   * Pulls up to `max` not-yet-due subjects forward, nearest due first, skipping (and keeping) those
   * whose `notBeforeMs` is still ahead, looking past at most `scan` of them: so a few subjects
   * cannot soak up the spare budget visit after visit.
   */
  takeFill(nowMs: number, max: number, scan: number, out: number[]): void {
    out.length = 0;
    const blocked: number[] = [];
    while (out.length < max && this.size > 0 && blocked.length < scan) {
      const key = this.keys[0]!;
      const id = this.ids[0]!;
      this.popRoot();
      if (key !== this.dueMs[id]) continue;
      if (this.notBeforeMs[id]! > nowMs) {
        blocked.push(id);
        continue;
      }
      this.countTaken(id, nowMs - key);
      out.push(id);
    }
    for (const id of blocked) this.push(id, this.dueMs[id]!);
  }

  private takeRoot(nowMs: number, out: number[]): void {
    const key = this.keys[0]!;
    const id = this.ids[0]!;
    this.popRoot();
    this.countTaken(id, nowMs - key);
    out.push(id);
  }

  private countTaken(id: number, latenessMs: number): void {
    this.dueMs[id] = Number.NaN;
    this.latenessSumMs += latenessMs;
    this.intervalSumMs += this.intervalMs[id]!;
    if (this.intervalMs[id]! > 0) this.relativeSum += latenessMs / this.intervalMs[id]!;
    this.taken += 1;
  }

  private popRoot(): void {
    const n = --this.size;
    if (n === 0) return;
    const key = this.keys[n]!;
    const id = this.ids[n]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.keys[child + 1]! < this.keys[child]!) child += 1;
      if (this.keys[child]! >= key) break;
      this.keys[i] = this.keys[child]!;
      this.ids[i] = this.ids[child]!;
      i = child;
    }
    this.keys[i] = key;
    this.ids[i] = id;
  }

  /** Drops stale entries by rebuilding from the live due times (rescheduling leaves them behind). */
  private compact(): void {
    const live: number[] = [];
    for (let id = 0; id < this.dueMs.length; id++) if (!Number.isNaN(this.dueMs[id]!)) live.push(id);
    this.size = 0;
    for (const id of live) this.push(id, this.dueMs[id]!);
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    const ids = new Int32Array(keys.length);
    ids.set(this.ids);
    this.keys = keys;
    this.ids = ids;
  }
}
