import { ManualClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { Acker } from '../../../src/runner/acker';
import type { AckItem, JobLeases, ThroughputCounter } from '../../../src/sources/contract';

/** Records what the acker asks of the frontier; the real frontier's acks are covered by the integration tests. */
function recorder(opts: { failCounts?: number } = {}) {
  const acks: number[] = [];
  const counts: [number, number][] = [];
  let failCounts = opts.failCounts ?? 0;
  const frontier: Pick<JobLeases, 'ack'> & ThroughputCounter = {
    ack: async (items: AckItem[]) => {
      acks.push(items.length);
      return items.map(() => true);
    },
    countThroughput: async (visits: number, docs: number) => {
      if (failCounts-- > 0) throw new Error('redis away');
      counts.push([visits, docs]);
    },
  };
  return { frontier, acks, counts };
}

const item = (docs: number): AckItem => ({ job: {} as AckItem['job'], state: {} as AckItem['state'], nextDueMs: 0, docs });

describe('Acker', () => {
  it('stores a full batch in one ack call and resolves each with its ownership', async () => {
    const r = recorder();
    const acker = new Acker(r.frontier, { clock: new ManualClock(0), logger: silentLogger, sleep: async () => undefined }, 3, 10_000);
    const owned = await Promise.all([acker.ack(item(1)), acker.ack(item(2)), acker.ack(item(0))]);
    expect(owned).toEqual([true, true, true]);
    expect(r.acks).toEqual([3]);
  });

  it('writes throughput counters at most once per interval, adding up the batches in between, and the rest on drain', async () => {
    const r = recorder();
    const clock = new ManualClock(0);
    const acker = new Acker(r.frontier, { clock, logger: silentLogger, sleep: async () => undefined }, 1, 10_000, 1000);
    await acker.ack(item(2)); // the first batch writes at once
    clock.advanceMs(300);
    await acker.ack(item(3));
    clock.advanceMs(300);
    await acker.ack(item(4));
    expect(r.acks).toEqual([1, 1, 1]);
    expect(r.counts).toEqual([[1, 2]]);
    clock.advanceMs(400); // 1000 ms after the last write
    await acker.ack(item(5));
    expect(r.counts).toEqual([[1, 2], [3, 12]]);
    clock.advanceMs(10);
    await acker.ack(item(6));
    await acker.drain();
    expect(r.counts).toEqual([[1, 2], [3, 12], [1, 6]]);
  });

  it('keeps the counts of a failed counter write for the next one without holding the ack', async () => {
    const r = recorder({ failCounts: 1 });
    const clock = new ManualClock(0);
    const acker = new Acker(r.frontier, { clock, logger: silentLogger, sleep: async () => undefined }, 1, 10_000, 1000);
    await expect(acker.ack(item(2))).resolves.toBe(true);
    expect(r.counts).toEqual([]);
    clock.advanceMs(1000);
    await acker.ack(item(1));
    expect(r.counts).toEqual([[2, 3]]);
  });
});
