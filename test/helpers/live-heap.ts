import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Bytes of live heap after a full garbage collection. `heapUsed` alone counts garbage not yet
 * collected, which depends on when V8 last collected (and on what the test worker ran before),
 * not on what the code under test holds.
 */
export function liveHeapBytes(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}
