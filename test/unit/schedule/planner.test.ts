import { forecastBudgets } from '../../../src/schedule/planner';
import { FreshetPolicy } from '../../../src/schedule/simulation/policies/freshet';
import { DEFAULT_SIMULATION, type SimulationOptions, simulate, simulationEndMs } from '../../../src/schedule/simulation/simulate';
import { DEFAULT_WORLD, generateWorld } from '../../../src/schedule/simulation/world';

const DAY_MS = 86_400_000;

describe('what-if planner', () => {
  it('predicts the simulated mean delay at other budgets from one crawl\'s estimates', () => {
    const subjects = 1200;
    const base: Omit<SimulationOptions, 'budgetPerHour'> = { ...DEFAULT_SIMULATION, warmupMs: 3 * DAY_MS, measureMs: 3 * DAY_MS, tailMs: DAY_MS };
    const world = generateWorld({ ...DEFAULT_WORLD, subjects, endMs: simulationEndMs(base), seed: 31 });
    const crawl = (budgetPerHour: number) => {
      const policy = new FreshetPolicy({ subjects, startMs: 0, budgetPerHour, pageSize: base.pageSize });
      const m = simulate(world, policy, { ...base, budgetPerHour });
      return { policy, m };
    };
    const budgets = [subjects / 24, (3 * subjects) / 24];
    const first = crawl(budgets[0]!);
    const states = Array.from({ length: subjects }, (_, id) => first.policy.state(id));
    const [at1, at3] = forecastBudgets(states, first.policy.currentModel, budgets);
    const measured3 = crawl(budgets[1]!).m.meanDelayHours;
    expect(Math.abs(at1!.meanDelayHours / first.m.meanDelayHours - 1)).toBeLessThan(0.15);
    expect(Math.abs(at3!.meanDelayHours / measured3 - 1)).toBeLessThan(0.15);
    expect(at3!.meanDelayHours).toBeLessThan(at1!.meanDelayHours);
    expect(at3!.p90DelayHours).toBeGreaterThan(at3!.meanDelayHours);
    expect(at3!.withinDayShare).toBeGreaterThanOrEqual(at1!.withinDayShare);
  });
});
