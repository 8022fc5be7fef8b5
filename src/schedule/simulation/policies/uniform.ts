/** Uniform round-robin: every subject in turn, as often as the budget allows. */
import type { VisitResult } from '../../subject-state';
import type { PolicyContext, SchedulingPolicy } from './policy';

export class UniformPolicy implements SchedulingPolicy {
  readonly name = 'uniform';
  private nextId = 0;
  private readonly subjects: number;

  constructor(ctx: PolicyContext) {
    this.subjects = ctx.subjects;
  }

  pick(_nowMs: number, max: number, out: number[]): void {
    out.length = 0;
    const n = Math.min(max, this.subjects);
    for (let i = 0; i < n; i++) {
      out.push(this.nextId);
      this.nextId = (this.nextId + 1) % this.subjects;
    }
  }

  observe(_id: number, _visit: VisitResult): void {}

  replan(): void {}
}
