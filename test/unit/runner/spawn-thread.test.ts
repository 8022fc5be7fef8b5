import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { spawnThread } from '../../../src/runner/spawn-thread';

const FIXTURES = join(__dirname, '../../fixtures/threads');

async function newSpaceBytes(w: Worker): Promise<number> {
  try {
    return await new Promise<number>((resolve, reject) => {
      w.once('message', (m: number) => resolve(m));
      w.once('error', reject);
    });
  } finally {
    await w.terminate();
  }
}

describe('spawnThread', () => {
  it('starts a thread with a young-generation cap at that cap, not at V8\'s 1 MiB semi-spaces', async () => {
    // Measured with Node 20: a 16 MiB cap at full size is 8 MiB of new space; V8's own start is
    // 2 MiB whatever the cap.
    const bytes = await newSpaceBytes(spawnThread(FIXTURES, 'heap-report', undefined, { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 64 }));
    expect(bytes).toBeGreaterThanOrEqual(8 * 2 ** 20);
  });
});
