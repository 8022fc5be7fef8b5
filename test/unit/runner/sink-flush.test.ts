import { setImmediate as tick } from 'node:timers/promises';
import { SinkFlushTrigger } from '../../../src/runner/sink-flush';

describe('sink flush trigger', () => {
  it('asks for a flush when every open visit has ended, even while settled jobs still hold their credits (acks in flight)', async () => {
    let flushes = 0;
    const t = new SinkFlushTrigger(64, () => (flushes += 1));
    t.started();
    t.started();
    t.started();
    t.sealed();
    t.sealed();
    await tick();
    expect(flushes).toBe(0); // one visit still emits documents
    t.sealed(); // the last open visit ends: everything open now waits on the sink
    await tick();
    expect(flushes).toBe(1);
  });

  it('asks every half of the credit limit of ended visits, and never without a sink to ask', async () => {
    let flushes = 0;
    const t = new SinkFlushTrigger(4, () => (flushes += 1));
    for (let i = 0; i < 10; i++) t.started();
    for (let i = 0; i < 4; i++) t.sealed();
    await tick();
    expect(flushes).toBe(2);
    const none = new SinkFlushTrigger(4, undefined);
    none.started();
    expect(() => none.sealed()).not.toThrow();
  });
});
