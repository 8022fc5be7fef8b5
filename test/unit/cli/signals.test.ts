import { EventEmitter } from 'node:events';
import { onStopSignals, type SignalSource } from '../../../src/cli/signals';

function harness() {
  const emitter = new EventEmitter();
  let now = 0;
  const calls: [NodeJS.Signals, number][] = [];
  const source: SignalSource = { on: (s, l) => emitter.on(s, l), off: (s, l) => emitter.off(s, l) };
  const off = onStopSignals((sig, n) => calls.push([sig, n]), { source, nowMs: () => now });
  return { calls, off, emitter, send: (sig: NodeJS.Signals, atMs: number) => { now = atMs; emitter.emit(sig, sig); } };
}

describe('stop signals', () => {
  it('takes the same signal twice within 500 ms for one request (the terminal\'s copy and the launcher\'s)', () => {
    const h = harness();
    h.send('SIGINT', 1000);
    h.send('SIGINT', 1003);
    expect(h.calls).toEqual([['SIGINT', 1]]);
    h.send('SIGINT', 2600);
    expect(h.calls).toEqual([['SIGINT', 1], ['SIGINT', 2]]);
  });

  it('counts a different signal, or the same one later, as a new request', () => {
    const h = harness();
    h.send('SIGTERM', 0);
    h.send('SIGINT', 10);
    h.send('SIGINT', 600);
    expect(h.calls).toEqual([['SIGTERM', 1], ['SIGINT', 2], ['SIGINT', 3]]);
  });

  it('stops listening when asked', () => {
    const h = harness();
    h.off();
    h.send('SIGTERM', 0);
    expect(h.calls).toEqual([]);
    expect(h.emitter.listenerCount('SIGTERM')).toBe(0);
  });
});
