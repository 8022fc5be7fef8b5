import { MetricsRecorder } from '../../../src/schedule/simulation/metrics';
import type { World } from '../../../src/schedule/simulation/world';

const H = 3_600_000;

/** One subject whose posts are at `hours`. */
function worldOf(hours: number[]): World {
  return {
    options: {} as World['options'], subjects: 1, ratePerHour: Float64Array.of(0), phaseMs: Float64Array.of(0), historyStartMs: 0,
    offsets: Int32Array.of(0, hours.length), postTimesMs: Float64Array.from(hours, (h) => h * H),
  };
}

describe('simulation metrics', () => {
  it('reads the mean delay by Little\'s law too: waiting inside the window, whoever waits, over the posts published in it', () => {
    // Window [0, 10 h), run end 12 h. A post from before the window is read at 1 h; two of the
    // window's are read at 4 h; the last, at 8 h, is still waiting when the run ends.
    const rec = new MetricsRecorder(worldOf([-2, 1, 2, 8]), 0, 10 * H);
    rec.capture(0, 1, 1 * H, true);
    rec.capture(1, 3, 4 * H, true);
    const m = rec.finish('p', Int32Array.of(3), 12 * H);
    // Captured posts wait 3 h and 2 h; the last counts to the run's end, 4 h.
    expect(m.meanDelayHours).toBeCloseTo(3, 9);
    // Waiting inside the window: 1 h (from before it) + 3 + 2 + 2 (to the window's end) over 3 posts.
    expect(m.littleMeanDelayHours).toBeCloseTo(8 / 3, 9);
  });

  it('leaves posts lost past a first visit\'s page limit out of Little\'s figure', () => {
    const rec = new MetricsRecorder(worldOf([1, 2, 3]), 0, 10 * H);
    rec.lose(0, 1);
    rec.capture(1, 3, 5 * H, true);
    const m = rec.finish('p', Int32Array.of(3), 12 * H);
    expect(m.lost).toBe(1);
    expect(m.littleMeanDelayHours).toBeCloseTo((3 + 2) / 2, 9);
  });
});
