import { ManualClock } from '../../../src/core/clock';

describe('ManualClock', () => {
  it('moves only forward, and only when told', () => {
    const c = new ManualClock(1000);
    expect(c.nowMs()).toBe(1000);
    c.advanceMs(500);
    expect(c.nowMs()).toBe(1500);
    expect(() => c.advanceMs(-1)).toThrow(RangeError);
    expect(() => c.setMs(10)).toThrow(RangeError);
  });
});
