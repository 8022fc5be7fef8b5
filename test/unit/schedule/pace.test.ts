import { DEFAULT_PACE, INITIAL_PACE, updatePace } from '../../../src/schedule/pace';

describe('updatePace', () => {
  it('slows visits while they run late and recovers when they are on time again', () => {
    let s = INITIAL_PACE;
    for (let h = 0; h < 10; h++) s = updatePace(s, 3, 1);
    expect(s.pace).toBeLessThan(0.8);
    const slowest = s.pace;
    for (let h = 0; h < 10; h++) s = updatePace(s, -0.5, 1);
    expect(s.pace).toBeGreaterThan(slowest);
  });

  it('speeds up when visits keep being pulled forward (the plan over-estimates costs)', () => {
    let s = INITIAL_PACE;
    for (let h = 0; h < 20; h++) s = updatePace(s, -0.5, 1);
    expect(s.pace).toBeGreaterThan(1.1);
  });

  it('holds still when visits are on time', () => {
    expect(updatePace(INITIAL_PACE, 0, 1)).toEqual(INITIAL_PACE);
  });

  it('stays within its bounds', () => {
    let s = INITIAL_PACE;
    for (let h = 0; h < 1000; h++) s = updatePace(s, 100, 1);
    expect(s.pace).toBeCloseTo(DEFAULT_PACE.minPace, 12);
    for (let h = 0; h < 1000; h++) s = updatePace(s, -100, 1);
    expect(s.pace).toBeCloseTo(DEFAULT_PACE.maxPace, 12);
  });
});
