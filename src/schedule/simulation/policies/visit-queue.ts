/**
 * What a policy with due times hands out each tick: revisits from the due queue and first visits
 * from the never-visited, without either starving the other.
 *
 * A cold start puts every subject in the first sweep at once. Served strictly by due time, the
 * sweep (all due at the start) would take the whole budget until it ends — days at a tight budget —
 * while the busy subjects it already found pile up posts past the page limit. So while subjects
 * remain unvisited, revisits that are due get at most `1 − sweepShare` of a tick's visits and the
 * sweep at least `sweepShare`; whatever one side leaves goes to the other, then to a fill that pulls
 * the nearest due visits forward (never before their `notBeforeMs`), so that the budget is spent.
 */
import { DueQueue } from './due-queue';

/** How many blocked entries a fill looks past for one it may pull forward. */
const FILL_SCAN = 4096;

export class VisitQueue {
  readonly due: DueQueue;
  private readonly unvisited: number[];
  private nextUnvisited = 0;
  private readonly seen: Uint8Array;
  private unseen: number;
  private readonly scratch: number[] = [];

  constructor(subjects: number, private readonly sweepShare = 0.5) {
    this.due = new DueQueue(subjects);
    this.unvisited = Array.from({ length: subjects }, (_, id) => id);
    this.seen = new Uint8Array(subjects);
    this.unseen = subjects;
  }

  /** Subjects never visited (and not handed out for a first visit yet). */
  get unvisitedCount(): number {
    return this.unseen;
  }

  /** Called on every visit: a visited subject leaves the sweep. */
  visited(id: number): void {
    if (this.seen[id]) return;
    this.seen[id] = 1;
    this.unseen -= 1;
  }

  private nextFirstVisit(): number | undefined {
    while (this.nextUnvisited < this.unvisited.length) {
      const id = this.unvisited[this.nextUnvisited++]!;
      if (!this.seen[id]) return id;
    }
    return undefined;
  }

  take(nowMs: number, max: number, fill: boolean, out: number[]): void {
    out.length = 0;
    const sweepLeft = this.unvisitedCount;
    const revisitRoom = sweepLeft > 0 ? Math.max(1, Math.floor((1 - this.sweepShare) * max)) : max;
    const tmp = this.scratch;
    this.due.take(nowMs, Math.min(max, revisitRoom), false, tmp);
    for (const id of tmp) out.push(id);
    while (out.length < max) {
      const id = this.nextFirstVisit();
      if (id === undefined) break;
      out.push(id);
    }
    if (out.length < max) {
      this.due.take(nowMs, max - out.length, false, tmp);
      for (const id of tmp) out.push(id);
    }
    if (out.length < max && fill) {
      this.due.takeFill(nowMs, max - out.length, FILL_SCAN, tmp);
      for (const id of tmp) out.push(id);
    }
  }
}
