import type { SubjectState } from '../core/envelope';
import type { Metrics } from '../core/metrics';
import type { Adapter } from '../parsers/adapter';
import type { SubjectIntake } from '../sources/contract';

export interface Discovered {
  subject: string;
  state: SubjectState;
}

/**
 * Hands what a visit discovered to the frontier: live subjects queued one level deeper, zombies
 * recorded (dedup, state) but never queued; counted new or known, and the adapter told.
 */
export async function offerDiscovered(discovered: Discovered[], nowMs: number, deps: { frontier: SubjectIntake; metrics: Metrics; adapter: Adapter }): Promise<void> {
  const zombies = discovered.filter((d) => d.state.status === 'zombie');
  const live = discovered.filter((d) => d.state.status !== 'zombie');
  // Claims take the lowest score first and same-millisecond subjects tie (then go by name):
  // a thousandth of a millisecond per level keeps discovery breadth-first at any clock resolution.
  const levelDueMs = nowMs - 1 + Math.min(live[0]?.state.depth ?? 1, 999) / 1000;
  const added = (live.length > 0 ? await deps.frontier.offer(live, levelDueMs) : 0)
    + (zombies.length > 0 ? await deps.frontier.record(zombies) : 0);
  deps.metrics.discovered.inc({ result: 'new' }, added);
  deps.metrics.discovered.inc({ result: 'known' }, discovered.length - added);
  deps.adapter.offered?.(discovered.map((d) => d.subject));
}
