import { ManualClock } from '../../src/core/clock';
import type { DocEnvelope } from '../../src/core/envelope';
import { silentLogger } from '../../src/core/logger';
import { createMetrics } from '../../src/core/metrics';
import { seededRng } from '../../src/core/rng';
import type { StageContext } from '../../src/core/stage';

/** A stage context for unit tests that records what was dropped and why. */
export function stageContext(): { ctx: StageContext; dropped: { id: string; stage: string; reason: string }[] } {
  const dropped: { id: string; stage: string; reason: string }[] = [];
  return {
    dropped,
    ctx: {
      pipeline: 'test', clock: new ManualClock(0), rng: seededRng(1), logger: silentLogger, metrics: createMetrics(),
      drop: (env: DocEnvelope, stage: string, reason: string) => dropped.push({ id: env.doc.id, stage, reason }),
    },
  };
}
