import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { spawnThread } from '../../../src/runner/spawn-thread';

const FIXTURES = join(__dirname, '../../fixtures/threads');

async function firstMessage<T>(w: Worker): Promise<T> {
  try {
    return await new Promise<T>((resolve, reject) => {
      w.once('message', (m: T) => resolve(m));
      w.once('error', reject);
    });
  } finally {
    await w.terminate();
  }
}

describe('spawnThread', () => {
  it('starts a thread with a young-generation cap at that cap, not at V8\'s 1 MiB semi-spaces', async () => {
    // Measured with Node 20: a 16 MiB cap at full size is 8 MiB of new space; V8's own start is
    // 2 MiB whatever the cap (the page threads' 8 MiB cap would not tell the two apart).
    const bytes = await firstMessage<number>(spawnThread(FIXTURES, 'heap-report', undefined, { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 64 }));
    expect(bytes).toBeGreaterThanOrEqual(8 * 2 ** 20);
  });

  it('sets the V8 flags it is given before the thread is made (the page threads go without pretenuring this way)', async () => {
    // A flag nothing else in this process sets, whose effect a new thread shows in its globals.
    expect(await firstMessage<string>(spawnThread(FIXTURES, 'globals-report', undefined, undefined, ['--harmony-shadow-realm']))).toBe('function');
  });
});
