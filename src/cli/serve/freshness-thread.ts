import type { Worker } from 'node:worker_threads';
import { spawnThread } from '../../runner/spawn-thread';
import type { FrontierFreshness } from '../../schedule/core-bridge';
import type { FreshnessAsk, FreshnessComputer } from './freshness-model';

interface Pending { resolve: (f: FrontierFreshness) => void; reject: (err: Error) => void }

/**
 * The refit and the meter on their own thread: at 100,000 subjects the refit takes seconds, and
 * on serve's event loop it would hold every API answer and page that long. One thread, started
 * on the first ask; a thread that dies fails what it held and the next ask starts another.
 */
export class ThreadFreshness implements FreshnessComputer {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  constructor(private readonly spawn: () => Worker = () => spawnThread(__dirname, 'freshness-worker', undefined)) {}

  compute(ask: FreshnessAsk): Promise<FrontierFreshness> {
    const worker = this.worker ?? this.start();
    const id = (this.nextId += 1);
    return new Promise<FrontierFreshness>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Held open while it owes an answer; idle, it never keeps serve's process alive.
      worker.ref();
      worker.postMessage({ id, ask });
    });
  }

  private start(): Worker {
    const worker = this.spawn();
    worker.on('message', (m: { id: number; figures?: FrontierFreshness; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      if (m.figures) p.resolve(m.figures);
      else p.reject(new Error(`freshness figures: ${m.error ?? 'no answer'}`));
    });
    const fail = (err: Error): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', (err) => fail(new Error(`freshness thread failed: ${err.message}`)));
    worker.on('exit', (code) => fail(new Error(`freshness thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(new Error('freshness thread closed'));
    this.pending.clear();
    if (worker) await worker.terminate();
  }
}
