import { ManualClock } from '../../../src/core/clock';
import { AcceleratedClock, createWorld, startSimsite } from '../../../src/simsite';

describe('simsite clock', () => {
  it('runs speed times faster than the real clock, from startMs', () => {
    const real = new ManualClock(1_000);
    const c = new AcceleratedClock(5_000_000, 3600, real);
    expect(c.nowMs()).toBe(5_000_000);
    real.advanceMs(1000);
    expect(c.nowMs()).toBe(5_000_000 + 3_600_000);
  });

  it('can jump ahead and change speed, never go back', () => {
    const real = new ManualClock(0);
    const c = new AcceleratedClock(0, 10, real);
    real.advanceMs(100);
    c.advanceMs(5000);
    expect(c.nowMs()).toBe(6000);
    c.setSpeed(1);
    real.advanceMs(100);
    expect(c.nowMs()).toBe(6100);
    expect(() => c.advanceMs(-1)).toThrow(RangeError);
    expect(() => c.setSpeed(0)).toThrow(RangeError);
  });

  it('is controlled over HTTP: POST /_control/clock advances it and new posts appear', async () => {
    const world = createWorld({ seed: 8, users: 100 });
    const real = new ManualClock(0);
    const site = await startSimsite({ world, speed: 1, realClock: real });
    try {
      const before = (await (await fetch(`${site.url}/_truth/posts`)).json()) as unknown[];
      const r = await fetch(`${site.url}/_control/clock`, { method: 'POST', body: JSON.stringify({ advanceMs: 86_400_000, speed: 60 }) });
      const state = (await r.json()) as { nowMs: number; speed: number };
      expect(state).toMatchObject({ nowMs: world.startMs + 86_400_000, speed: 60 });
      const after = (await (await fetch(`${site.url}/_truth/posts`)).json()) as unknown[];
      expect(after.length).toBeGreaterThan(before.length);
      expect((await fetch(`${site.url}/_control/clock`, { method: 'POST', body: '{"advanceMs":-5}' })).status).toBe(400);
    } finally {
      await site.close();
    }
  });
});
