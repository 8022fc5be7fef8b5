import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { systemClock } from '../core/clock';
import { FreshetError } from '../core/errors';
import { loggerTo, type Logger } from '../core/logger';
import { seededRng } from '../core/rng';
import { COLLECT_AFTER_PAGE_CHARS, fullCollection } from './full-collection';
import { PageWork, type PageRequest, type PageWorkInit } from './page-work';

/** A page worker thread (started by PagePool): reads the pages it is sent and answers each. */

/** Log records go to the main thread's logger; fields that cannot be cloned are sent as JSON. */
function portLogger(port: MessagePort): Logger {
  return loggerTo((log) => {
    try {
      port.postMessage({ log });
    } catch {
      const fields = JSON.parse(JSON.stringify(log.fields, (_k, v: unknown) => (typeof v === 'function' ? undefined : v))) as object;
      port.postMessage({ log: { ...log, fields } });
    }
  });
}

if (parentPort) {
  const collect = fullCollection();
  const port = parentPort;
  const init = workerData as PageWorkInit;
  const work = new PageWork(init, { clock: systemClock, rng: seededRng(init.seed), logger: portLogger(port) });
  port.postMessage({ ready: true });
  port.on('message', (req: PageRequest) => {
    // Read before the page is handed over (its text is let go once parsed); `req` itself is not
    // kept by the callbacks, so nothing of the page outlives its answer.
    const { id } = req;
    const big = req.page.text.length >= COLLECT_AFTER_PAGE_CHARS;
    work.run(req).then(
      (done) => {
        port.postMessage(done);
        if (collect && big) collect();
      },
      (err: unknown) => port.postMessage({
        id,
        error: err instanceof FreshetError ? { message: err.message, code: err.code, kind: err.kind } : { message: err instanceof Error ? err.message : String(err) },
      }),
    );
  });
}
