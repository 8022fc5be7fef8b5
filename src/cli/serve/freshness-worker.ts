import { parentPort } from 'node:worker_threads';
import { FreshnessModels, type FreshnessAsk } from './freshness-model';

/** The freshness thread: asks in, figures (or the error's message) out; the models stay here. */
const models = new FreshnessModels();
parentPort?.on('message', (m: { id: number; ask: FreshnessAsk }) => {
  try {
    parentPort!.postMessage({ id: m.id, figures: models.figures(m.ask) });
  } catch (err) {
    parentPort!.postMessage({ id: m.id, error: (err as Error).message });
  }
});
