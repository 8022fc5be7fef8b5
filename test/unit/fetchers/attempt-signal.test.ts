import { AttemptWindows } from '../../../src/fetchers/attempt-signal';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('AttemptWindows', () => {
  let windows: AttemptWindows;
  beforeEach(() => {
    windows = new AttemptWindows();
  });

  it('keeps the windows of two owners apart, and closes a window its last attempt leaves', () => {
    // Fake clock: on a loaded machine the 10 ms join window could pass between two real starts.
    jest.useFakeTimers();
    try {
      const other = new AttemptWindows();
      const a = windows.start(undefined, 1000);
      const b = other.start(undefined, 1000);
      expect(b.signal).not.toBe(a.signal);
      jest.advanceTimersByTime(9);
      const c = windows.start(undefined, 1000);
      expect(c.signal === a.signal).toBe(true);
      b.done();
      expect(other.open).toBe(false);
      expect(windows.open).toBe(true);
      a.done();
      c.done();
      expect(windows.open).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('shares one signal between attempts started together, and ends none before its cap', () => {
    jest.useFakeTimers();
    try {
      const a = windows.start(undefined, 300); // window: 3 ms
      jest.advanceTimersByTime(2);
      const b = windows.start(undefined, 300);
      expect(b.signal).toBe(a.signal);
      // b's own cap ends at 302: the shared deadline may not come earlier.
      jest.advanceTimersByTime(300);
      expect(b.signal.aborted).toBe(false);
      jest.advanceTimersByTime(1);
      expect(b.signal.aborted).toBe(true);
      expect(a.timedOut()).toBe(true);
      expect(b.timedOut()).toBe(true);
      a.done();
      b.done();
    } finally {
      jest.useRealTimers();
    }
  });

  it('does not let a new attempt join a window that has timed out', async () => {
    const a = windows.start(undefined, 50);
    await sleep(80);
    expect(a.signal.aborted).toBe(true);
    const b = windows.start(undefined, 50);
    expect(b.signal.aborted).toBe(false);
    expect(b.timedOut()).toBe(false);
    a.done();
    b.done();
  });

  it('frees the deadline once every attempt is done: a settled attempt is never aborted later', async () => {
    const a = windows.start(undefined, 60);
    a.done();
    a.done(); // idempotent: must not release another attempt's hold
    const b = windows.start(undefined, 60);
    expect(b.signal).not.toBe(a.signal);
    b.done();
    await sleep(100);
    expect(a.signal.aborted).toBe(false);
    expect(a.timedOut()).toBe(false);
  });

  it('keeps attempts with different caller signals or caps apart', () => {
    const outer = new AbortController();
    const a = windows.start(undefined, 1000);
    const b = windows.start(outer.signal, 1000);
    const c = windows.start(outer.signal, 2000);
    expect(new Set([a.signal, b.signal, c.signal]).size).toBe(3);
    for (const x of [a, b, c]) x.done();
  });

  it("passes the caller's abort on with its reason, not as a timeout", () => {
    const outer = new AbortController();
    const a = windows.start(outer.signal, 1000);
    const b = windows.start(outer.signal, 1000);
    outer.abort(new Error('shutdown'));
    expect(a.signal.aborted).toBe(true);
    expect((a.signal.reason as Error).message).toBe('shutdown');
    expect(a.timedOut()).toBe(false);
    expect(b.signal.aborted).toBe(true);
    a.done();
    b.done();
    const late = windows.start(outer.signal, 1000);
    expect(late.signal.aborted).toBe(true);
    expect(late.timedOut()).toBe(false);
    late.done();
  });

  it('aborts the dispatch signal undici listens to with the signal, on the cap and on the caller', () => {
    jest.useFakeTimers();
    try {
      const a = windows.start(undefined, 300);
      const heard: unknown[] = [];
      const d = a.dispatchSignal as unknown as { aborted: boolean; reason: unknown; once(e: string, l: () => void): void };
      d.once('abort', () => heard.push(d.reason));
      jest.advanceTimersByTime(302);
      expect(a.signal.aborted).toBe(false);
      expect(d.aborted).toBe(false);
      jest.advanceTimersByTime(1);
      expect(d.aborted).toBe(true);
      expect(heard).toEqual([a.signal.reason]);
      a.done();
    } finally {
      jest.useRealTimers();
    }
    const outer = new AbortController();
    const b = windows.start(outer.signal, 1000);
    const d = b.dispatchSignal as unknown as { aborted: boolean; reason: unknown };
    outer.abort(new Error('shutdown'));
    expect(d.aborted).toBe(true);
    expect((d.reason as Error).message).toBe('shutdown');
    b.done();
    const late = windows.start(outer.signal, 1000);
    expect(late.dispatchSignal.aborted).toBe(true);
    late.done();
  });

  it("stops an attempt's clock while it is paused and gives it the rest of its cap after", () => {
    jest.useFakeTimers();
    try {
      const a = windows.start(undefined, 300); // cap 300 + window 3
      const b = windows.start(undefined, 300);
      const da = a.dispatchSignal as unknown as { aborted: boolean };
      const db = b.dispatchSignal as unknown as { aborted: boolean };
      jest.advanceTimersByTime(100);
      a.pause();
      a.pause(); // nested: one resume does not restart the clock
      jest.advanceTimersByTime(1000);
      // b, in the same window and never paused, ended at its cap; a did not.
      expect(db.aborted).toBe(true);
      expect(b.timedOut()).toBe(true);
      expect(da.aborted).toBe(false);
      a.resume();
      jest.advanceTimersByTime(1000);
      expect(da.aborted).toBe(false);
      a.resume();
      // 203 ms of its cap were left when it paused.
      jest.advanceTimersByTime(202);
      expect(da.aborted).toBe(false);
      jest.advanceTimersByTime(1);
      expect(da.aborted).toBe(true);
      expect(a.timedOut()).toBe(true);
      a.done();
      b.done();
    } finally {
      jest.useRealTimers();
    }
  });

  it("passes the caller's abort to a paused attempt, and a done attempt is never aborted", () => {
    jest.useFakeTimers();
    try {
      const outer = new AbortController();
      const a = windows.start(outer.signal, 300);
      const da = a.dispatchSignal as unknown as { aborted: boolean; reason: unknown };
      a.pause();
      jest.advanceTimersByTime(1000);
      outer.abort(new Error('shutdown'));
      expect(da.aborted).toBe(true);
      expect((da.reason as Error).message).toBe('shutdown');
      expect(a.timedOut()).toBe(false);
      a.done();
      const c = windows.start(undefined, 300);
      const dc = c.dispatchSignal as unknown as { aborted: boolean };
      c.pause();
      c.resume();
      c.done();
      jest.advanceTimersByTime(1000);
      expect(dc.aborted).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });
});
