import { DEFAULT_PACE, INITIAL_PACE, updatePace } from '../../../src/schedule/pace';

describe('updatePace', () => {
  it('slows visits while a backlog stands and recovers when it is gone', () => {
    let s = INITIAL_PACE;
    for (let h = 0; h < 10; h++) s = updatePace(s, 3, 1);
    expect(s.pace).toBeLessThan(0.8);
    const slowest = s.pace;
    for (let h = 0; h < 10; h++) s = updatePace(s, 0, 1);
    expect(s.pace).toBeGreaterThan(slowest);
  });

  it('speeds up when the queue keeps running dry (the plan over-estimates costs)', () => {
    let s = INITIAL_PACE;
    for (let h = 0; h < 100; h++) s = updatePace(s, 0, 1);
    expect(s.pace).toBeGreaterThan(1.05);
  });

  it('stays within its bounds', () => {
    let s = INITIAL_PACE;
    for (let h = 0; h < 1000; h++) s = updatePace(s, 100, 1);
    expect(s.pace).toBeCloseTo(DEFAULT_PACE.minPace, 12);
    for (let h = 0; h < 10_000; h++) s = updatePace(s, 0, 1);
    expect(s.pace).toBeCloseTo(DEFAULT_PACE.maxPace, 12);
  });
});
