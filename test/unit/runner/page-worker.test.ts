import { setTimeout as tick } from 'node:timers/promises';
import { COLLECT_AFTER_PAGE_CHARS, fullCollection } from '../../../src/runner/full-collection';

describe('page worker thread: full collection after a big page', () => {
  it('has a full collection to call, and it frees what nothing holds any more', async () => {
    const collect = fullCollection();
    expect(typeof collect).toBe('function');
    let garbage: object | undefined = { page: 'x'.repeat(1000) };
    const ref = new WeakRef(garbage);
    garbage = undefined;
    // A WeakRef's target lives until the current job ends.
    await tick(0);
    collect!();
    expect(ref.deref()).toBeUndefined();
    expect(COLLECT_AFTER_PAGE_CHARS).toBeGreaterThanOrEqual(2 ** 20);
  });
});
