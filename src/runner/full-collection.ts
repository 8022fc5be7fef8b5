import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Pages at least this long are followed by a full collection on their page thread. */
export const COLLECT_AFTER_PAGE_CHARS = 2 ** 20;

/**
 * The calling thread's full collection, or undefined where V8 refuses it. A big page's DOM, body
 * and text are garbage once its answer is sent, but V8 collects them only when its heap (or its
 * external memory, for the body's bytes and the decoded text) has grown a good deal further, so
 * RSS stays hundreds of MiB above what is live (issue 24). `--expose-gc` cannot be given to one
 * thread alone; the flag set at run time gives the function to a new context only, on the
 * calling thread's heap.
 */
export function fullCollection(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}
