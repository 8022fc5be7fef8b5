import { DEFAULT_PACE, DEFAULT_SPEND_PACE, INITIAL_PACE, updatePace, updateSpendPace } from '../../../src/schedule/pace';

describe('updatePace', () => {
  it('slows visits while they run late and recovers when they are on time again', () => {
    let s = INITIAL_PACE;
    for (let h = 0; h < 10; h++) s = updatePace(s, 0.3, 1, 10);
    expect(s.pace).toBeLessThan(0.8);
    const slowest = s.pace;
    for (let h = 0; h < 10; h++) s = updatePace(s, -0.05, 1, 10);
    expect(s.pace).toBeGreaterThan(slowest);
  });

  it('speeds up when visits keep being pulled forward (the plan over-estimates costs)', () => {
    let s = INITIAL_PACE;
    for (let h = 0; h < 20; h++) s = updatePace(s, -0.05, 1, 10);
    expect(s.pace).toBeGreaterThan(1.1);
  });

  it('holds still when visits are on time', () => {
    expect(updatePace(INITIAL_PACE, 0, 1, 10)).toEqual(INITIAL_PACE);
  });

  it('reads lateness and time in planned intervals: the same relative lateness moves it alike at every budget', () => {
    let short = INITIAL_PACE;
    let long = INITIAL_PACE;
    for (let h = 0; h < 10; h++) {
      short = updatePace(short, 0.1, 1, 10);
      long = updatePace(long, 0.1, 10, 100);
    }
    expect(long.pace).toBeCloseTo(short.pace, 12);
    expect(long.pace).toBeLessThan(0.95);
    expect(updatePace(INITIAL_PACE, 0.5, 1, Number.NaN)).toEqual(INITIAL_PACE);
  });

  it('settles without swinging between its bounds when the intervals are days long', () => {
    // A queue whose visits are planned 100 h apart, replanned hourly. A change of pace moves every
    // due time by a share of its interval (rekeyed from the last visit): the visits taken next are
    // late by about half an interval × Δlog(pace); and at any pace above 0.9 the plan costs more
    // than the budget, so visits run late in proportion. With gains per hour of lateness (0.05) this loop swung
    // between 0.5 and 1.5 at every step, as at 0.25× in the benchmark.
    const intervalHours = 100;
    const sustainable = Math.log(0.9);
    let s = INITIAL_PACE;
    let previous = 0;
    const paces: number[] = [];
    for (let h = 0; h < 2000; h++) {
      const logPace = Math.log(s.pace);
      const latenessHours = 0.5 * intervalHours * (logPace - previous) + 0.5 * intervalHours * (logPace - sustainable);
      previous = logPace;
      s = updatePace(s, latenessHours / intervalHours, 1, intervalHours);
      paces.push(s.pace);
    }
    expect(Math.min(...paces)).toBeGreaterThan(DEFAULT_PACE.minPace + 0.05);
    expect(Math.max(...paces)).toBeLessThan(DEFAULT_PACE.maxPace - 0.05);
    expect(s.pace).toBeCloseTo(0.9, 2);
  });

  it('stays within its bounds', () => {
    let s = INITIAL_PACE;
    for (let h = 0; h < 1000; h++) s = updatePace(s, 10, 1, 10);
    expect(s.pace).toBeCloseTo(DEFAULT_PACE.minPace, 12);
    for (let h = 0; h < 1000; h++) s = updatePace(s, -10, 1, 10);
    expect(s.pace).toBeCloseTo(DEFAULT_PACE.maxPace, 12);
  });
});

describe('updateSpendPace', () => {
  it('speeds visits up while the queue holds less than the plan and holds once it holds the plan', () => {
    let s = INITIAL_PACE;
    s = updateSpendPace(s, 60, 80, 1);
    expect(s.pace).toBeGreaterThan(1);
    // A queue that follows the pace (scheduled = 60 × pace) settles where it holds the plan.
    for (let h = 0; h < 500; h++) s = updateSpendPace(s, 60 * s.pace, 80, 1);
    expect(s.pace).toBeCloseTo(80 / 60, 3);
    const held = updateSpendPace(s, 80, 80, 1);
    expect(held.integral).toBe(s.integral);
    expect(held.pace).toBeCloseTo(Math.exp(s.integral), 12);
  });

  it('slows down when the queue holds more than the plan', () => {
    let s = INITIAL_PACE;
    for (let h = 0; h < 10; h++) s = updateSpendPace(s, 100, 80, 1);
    expect(s.pace).toBeLessThan(0.9);
  });

  it('stays within its bounds and ignores an empty queue', () => {
    let s = INITIAL_PACE;
    for (let h = 0; h < 1000; h++) s = updateSpendPace(s, 1, 80, 1);
    expect(s.pace).toBeCloseTo(DEFAULT_SPEND_PACE.maxPace, 12);
    for (let h = 0; h < 1000; h++) s = updateSpendPace(s, 1000, 1, 1);
    expect(s.pace).toBeCloseTo(DEFAULT_SPEND_PACE.minPace, 12);
    expect(updateSpendPace(s, 0, 80, 1)).toBe(s);
  });
});
