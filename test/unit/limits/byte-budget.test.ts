import { ErrorCodes } from '../../../src/core/errors';
import { ByteBudget } from '../../../src/limits/byte-budget';

/** Lets pending promise callbacks run. */
const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

function track(p: Promise<void> | undefined): { granted: boolean; error?: unknown } {
  const t: { granted: boolean; error?: unknown } = { granted: p === undefined };
  p?.then(() => (t.granted = true), (e: unknown) => (t.error = e));
  return t;
}

describe('ByteBudget', () => {
  it('grants room at once while it lasts, makes the next holder wait, and lets it in when bytes are released', async () => {
    const budget = new ByteBudget(1000);
    const a = budget.hold();
    const b = budget.hold();
    expect(a.cover(600)).toBeUndefined();
    expect(a.cover(500)).toBeUndefined(); // covered already: a hold keeps its largest request
    const waitB = track(b.cover(600));
    await settle();
    expect(waitB.granted).toBe(false);
    expect(budget.inUse).toBe(600);
    a.release();
    await settle();
    expect(waitB.granted).toBe(true);
    expect(budget.inUse).toBe(600);
    expect(budget.peak).toBe(600);
    b.release();
    expect(budget.inUse).toBe(0);
  });

  it('serves waiting holders in order: a small request does not overtake a large one', async () => {
    const budget = new ByteBudget(1000);
    const a = budget.hold();
    a.cover(900);
    const big = track(budget.hold().cover(800));
    const small = track(budget.hold().cover(50)); // would fit now, but waits behind the large one
    await settle();
    expect([big.granted, small.granted]).toEqual([false, false]);
    a.release();
    await settle();
    expect([big.granted, small.granted]).toEqual([true, true]);
    expect(budget.inUse).toBe(850);
  });

  it('lets the first waiter through over the limit when only waiting holders hold bytes (no deadlock between partly read bodies)', async () => {
    const budget = new ByteBudget(1000);
    const a = budget.hold();
    const b = budget.hold();
    a.cover(500);
    b.cover(500);
    const aMore = track(a.cover(800)); // waits: b holds the rest
    await settle();
    expect(aMore.granted).toBe(false);
    const bMore = track(b.cover(700)); // now everything in use is held by waiters: the first goes on
    await settle();
    expect(aMore.granted).toBe(true);
    expect(bMore.granted).toBe(false);
    a.release();
    await settle();
    expect(bMore.granted).toBe(true);
    expect(budget.inUse).toBe(700);
  });

  it('lets one holder through over the limit, alone, until it is released: partly read bodies are not all read past the limit in turn (issue 24)', async () => {
    const budget = new ByteBudget(900);
    const [a, b, c] = [budget.hold(), budget.hold(), budget.hold()];
    a.cover(300);
    b.cover(300);
    c.cover(300);
    const waits = [track(a.cover(400)), track(b.cover(400)), track(c.cover(400))];
    await settle();
    // All three wait, holding everything in use: the oldest goes on, the others keep waiting.
    expect(waits.map((w) => w.granted)).toEqual([true, false, false]);
    // The one let through reads on without waiting; the others still wait for it.
    expect(a.cover(2000)).toBeUndefined();
    await settle();
    expect([waits[1]!.granted, waits[2]!.granted]).toEqual([false, false]);
    expect(budget.inUse).toBe(2600);
    a.release();
    await settle();
    expect([waits[1]!.granted, waits[2]!.granted]).toEqual([true, true]);
    expect(budget.inUse).toBe(800);
    b.release();
    c.release();
    expect(budget.inUse).toBe(0);
  });

  it('serves an older holder before a younger one, whichever asked first: bodies finish one after another', async () => {
    const budget = new ByteBudget(1000);
    const blocker = budget.hold();
    blocker.cover(600);
    const old = budget.hold();
    const young = budget.hold();
    old.cover(300);
    const youngWait = track(young.cover(500)); // asks first
    const oldWait = track(old.cover(600)); // asks after, but its body began first
    await settle();
    expect([oldWait.granted, youngWait.granted]).toEqual([false, false]);
    blocker.release();
    await settle();
    // Room for one of them: the older body goes on.
    expect([oldWait.granted, youngWait.granted]).toEqual([true, false]);
    expect(budget.inUse).toBe(600);
    old.release();
    await settle();
    expect(youngWait.granted).toBe(true);
  });

  it('lets a body larger than the whole budget through alone', async () => {
    const budget = new ByteBudget(100);
    const other = budget.hold();
    other.cover(50);
    const huge = track(budget.hold().cover(5000));
    await settle();
    expect(huge.granted).toBe(false);
    other.release();
    await settle();
    expect(huge.granted).toBe(true);
    expect(budget.inUse).toBe(5000);
  });

  it('gives up a wait when the run stops, with a retryable error, and keeps counting right', async () => {
    const budget = new ByteBudget(100);
    const a = budget.hold();
    a.cover(100);
    const stop = new AbortController();
    const b = budget.hold(stop.signal);
    const w = track(b.cover(10));
    stop.abort();
    await settle();
    expect(w.error).toMatchObject({ code: ErrorCodes.fetchAborted, kind: 'retryable' });
    b.release();
    a.release();
    expect(budget.inUse).toBe(0);
    await expect(budget.hold(stop.signal).cover(1)).rejects.toMatchObject({ code: ErrorCodes.fetchAborted });
  });

  it('drops the wait of a hold released while it waited (its body failed): nothing is granted to it, nothing leaks', async () => {
    const budget = new ByteBudget(1000);
    const a = budget.hold();
    a.cover(900);
    const b = budget.hold();
    b.cover(50);
    const w = track(b.cover(500));
    b.release();
    await settle();
    expect(w.error).toMatchObject({ code: ErrorCodes.fetchAborted });
    expect(budget.inUse).toBe(900);
    a.release();
    expect(budget.inUse).toBe(0);
    expect(budget.hold().cover(1000)).toBeUndefined();
  });

  it('with limit 0 grants everything at once and still counts', () => {
    const budget = new ByteBudget(0);
    expect(budget.hold().cover(1e9)).toBeUndefined();
    expect(budget.hold().cover(1e9)).toBeUndefined();
    expect(budget.inUse).toBe(2e9);
  });

  it('makes holders wait behind charged bytes and refuses to free more than was charged', async () => {
    const budget = new ByteBudget(100);
    budget.charge(90);
    const w = track(budget.hold().cover(20));
    await settle();
    expect(w.granted).toBe(false);
    budget.free(90);
    await settle();
    expect(w.granted).toBe(true);
    expect(() => budget.free(1000)).toThrow('freed more than was charged');
  });
  it('giveBack: a hold whose attempt failed gives its bytes back, so the paused readers are not left waiting on it (issue 24 stall)', async () => {
    const budget = new ByteBudget(1000);
    const failed = budget.hold(); // its read failed; it waits for a backoff and a connection, not for room
    const paused = budget.hold();
    expect(failed.cover(600)).toBeUndefined();
    expect(paused.cover(300)).toBeUndefined();
    const more = track(paused.cover(500));
    await settle();
    // Not every byte is held by a waiter: the budget waits for the failed hold, which never frees on its own.
    expect(more.granted).toBe(false);
    failed.giveBack();
    await settle();
    expect(more.granted).toBe(true);
    expect(budget.inUse).toBe(500);
    // The hold stays open: the retry asks again, in its turn.
    expect(failed.cover(400)).toBeUndefined();
    expect(budget.inUse).toBe(900);
    failed.release();
    paused.release();
    expect(budget.inUse).toBe(0);
  });

  it('giveBack gives up a wait still queued for the hold', async () => {
    const budget = new ByteBudget(1000);
    const other = budget.hold();
    other.cover(500);
    const h = budget.hold();
    h.cover(100);
    const wait = track(h.cover(900));
    await settle();
    h.giveBack();
    await settle();
    expect(wait.error).toMatchObject({ code: ErrorCodes.fetchAborted });
    expect(budget.inUse).toBe(500);
    other.release();
    expect(budget.inUse).toBe(0);
  });
});
