import { freshnessMeter } from '../../../src/schedule/freshness';
import { FreshetPolicy } from '../../../src/schedule/simulation/policies/freshet';
import { DEFAULT_SIMULATION, type SimulationOptions, simulate, simulationEndMs } from '../../../src/schedule/simulation/simulate';
import { DEFAULT_WORLD, generateWorld } from '../../../src/schedule/simulation/world';

const DAY_MS = 86_400_000;

describe('freshness meter', () => {
  it('predicts the posts published but not yet indexed within 15 % of the simulation\'s truth', () => {
    const opts: SimulationOptions = {
      ...DEFAULT_SIMULATION, budgetPerHour: 1500 / 24, warmupMs: 4 * DAY_MS, measureMs: DAY_MS, tailMs: 0, pageSize: 10,
      maxPagesPerVisit: 10, historyPages: 1, historyStartKnown: false, warmStart: false,
    };
    const world = generateWorld({ ...DEFAULT_WORLD, subjects: 1500, sigma: 2, medianPerDay: 0.2, historyDays: 30, endMs: simulationEndMs(opts), seed: 77 });
    const policy = new FreshetPolicy({ subjects: world.subjects, startMs: 0, budgetPerHour: opts.budgetPerHour, pageSize: 10, config: { pageLimit: 10 } });
    simulate(world, policy, opts);
    const endMs = simulationEndMs(opts);
    const states = Array.from({ length: world.subjects }, (_, id) => policy.state(id));
    let truth = 0;
    for (let id = 0; id < world.subjects; id++) {
      const last = states[id]!.lastVisitMs;
      if (last === null) continue;
      for (let k = world.offsets[id]!; k < world.offsets[id + 1]!; k++) {
        const t = world.postTimesMs[k]!;
        if (t > last && t <= endMs) truth++;
      }
    }
    const meter = freshnessMeter(states, policy.currentModel, endMs);
    expect(meter.unvisitedSubjects).toBe(0);
    expect(truth).toBeGreaterThan(100);
    expect(Math.abs(meter.unindexedPosts / truth - 1)).toBeLessThan(0.15);
    // The interval counts Poisson noise and the rates' uncertainty: wider than Poisson noise alone.
    // (It does not cover the prior's bias: here the mean is 14 % high, from quiet subjects estimated
    // above their rate, and the truth falls just below the interval.)
    expect(meter.unindexedHigh - meter.unindexedPosts).toBeGreaterThan(1.6448 * Math.sqrt(meter.unindexedPosts));
    expect(meter.unindexedLow).toBeLessThan(meter.unindexedPosts);
    expect(meter.unindexedMeanAgeHours).toBeGreaterThan(0);
    expect(meter.predictedMeanDelayHours).toBeGreaterThan(0);
  });
});
