/**
 * Stop signals (SIGINT, SIGTERM) as one stream of requests. The same signal twice within
 * `sameStopMs` is one request delivered twice, not a second request: a terminal's Ctrl-C reaches
 * every process of the foreground group, and systemd's stop every process of the unit, so under
 * `bin/freshet.js` (which re-runs freshet in a child and forwards the signals it gets) the crawler
 * gets one from its parent and one from the terminal or systemd. Without this, Ctrl-C would mean
 * "exit at once" where it means "drain".
 */
export const SAME_STOP_MS = 500;

export type StopHandler = (signal: NodeJS.Signals, requests: number) => void;

export interface SignalSource {
  on(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
  off(signal: NodeJS.Signals, listener: (signal: NodeJS.Signals) => void): unknown;
}

/** Calls `handler` once per stop request (counting from 1); returns the function that stops listening. */
export function onStopSignals(handler: StopHandler, opts: { source?: SignalSource; nowMs?: () => number; sameStopMs?: number } = {}): () => void {
  const source = opts.source ?? process;
  const nowMs = opts.nowMs ?? (() => performance.now());
  const sameMs = opts.sameStopMs ?? SAME_STOP_MS;
  let requests = 0;
  let last: { signal: NodeJS.Signals; atMs: number } | undefined;
  const listener = (signal: NodeJS.Signals) => {
    const at = nowMs();
    if (last && last.signal === signal && at - last.atMs < sameMs) return;
    last = { signal, atMs: at };
    requests += 1;
    handler(signal, requests);
  };
  source.on('SIGINT', listener);
  source.on('SIGTERM', listener);
  return () => {
    source.off('SIGINT', listener);
    source.off('SIGTERM', listener);
  };
}

/** Resolves on the first stop request; a later one exits at once (130), as Ctrl-C twice would. */
export function firstStop(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    onStopSignals((signal, n) => {
      if (n === 1) resolve(signal);
      else process.exit(130);
    });
  });
}
