import { Subject, toArray, lastValueFrom } from 'rxjs';
import { batchBy } from '../../../src/core/operators/batch';

describe('batchBy', () => {
  const opts = { maxCount: 3, maxBytes: 10, maxWaitMs: 50, sizeOf: (s: string) => s.length };

  it('closes batches by count and by bytes; a batch never exceeds maxBytes unless one item does', async () => {
    const src = new Subject<string>();
    const out = lastValueFrom(src.pipe(batchBy(opts), toArray()));
    for (const s of ['a', 'b', 'c', 'd', 'eeeeeeeee', 'ff', 'ggggggggggggg', 'h']) src.next(s);
    src.complete();
    expect(await out).toEqual([['a', 'b', 'c'], ['d', 'eeeeeeeee'], ['ff'], ['ggggggggggggg'], ['h']]);
  });

  it('closes a batch by time since its first item', async () => {
    jest.useFakeTimers();
    try {
      const src = new Subject<string>();
      const seen: string[][] = [];
      src.pipe(batchBy(opts)).subscribe((b) => seen.push(b));
      src.next('a');
      jest.advanceTimersByTime(49);
      expect(seen).toEqual([]);
      src.next('b');
      jest.advanceTimersByTime(1);
      expect(seen).toEqual([['a', 'b']]);
      src.next('c');
      jest.advanceTimersByTime(50);
      expect(seen).toEqual([['a', 'b'], ['c']]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('flushes what is open on completion and passes errors on', async () => {
    const src = new Subject<string>();
    const got: string[][] = [];
    let failed: unknown;
    src.pipe(batchBy(opts)).subscribe({ next: (b) => got.push(b), error: (e) => (failed = e) });
    src.next('a');
    src.error(new Error('boom'));
    expect(got).toEqual([['a']]);
    expect((failed as Error).message).toBe('boom');
  });

  it('closes the open batch when asked (the upstream waits on it), and ignores requests with nothing open', () => {
    const src = new Subject<string>();
    const requests = new Subject<void>();
    const seen: string[][] = [];
    const sub = src.pipe(batchBy({ ...opts, maxWaitMs: 60_000, flushRequests: requests })).subscribe((b) => seen.push(b));
    requests.next();
    src.next('a');
    src.next('b');
    expect(seen).toEqual([]);
    requests.next();
    expect(seen).toEqual([['a', 'b']]);
    requests.next();
    expect(seen).toEqual([['a', 'b']]);
    sub.unsubscribe();
    expect(requests.observed).toBe(false);
  });
});
