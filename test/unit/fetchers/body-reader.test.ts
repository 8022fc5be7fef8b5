import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import type { BodyAllowance } from '../../../src/fetchers/contract';
import { readBody } from '../../../src/fetchers/body-reader';

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 20));

/** A body sent in `chunkBytes` pieces, counting how many the reader pulled. */
function body(bytes: Buffer, chunkBytes: number): { stream: Readable; pulled: () => number } {
  let at = 0;
  let pulled = 0;
  const stream = new Readable({
    highWaterMark: chunkBytes,
    read() {
      if (at >= bytes.length) return void this.push(null);
      pulled += 1;
      this.push(bytes.subarray(at, (at += chunkBytes)));
    },
  });
  return { stream, pulled: () => pulled };
}

/** Grants up to `roomBytes`, then makes the reader wait until `open()`. */
function allowance(roomBytes: number): BodyAllowance & { asked: number[]; waits: number; open(): void } {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const a = {
    asked: [] as number[],
    waits: 0,
    open: () => open(),
    cover(bodyBytes: number): Promise<void> | undefined {
      a.asked.push(bodyBytes);
      if (bodyBytes <= roomBytes) return undefined;
      a.waits += 1;
      return gate;
    },
  };
  return a;
}

describe('readBody under a byte allowance', () => {
  it('asks for each decoded byte it keeps and stops reading the socket while there is no room', async () => {
    const bytes = Buffer.alloc(100_000, 'a');
    const b = body(bytes, 10_000);
    const room = allowance(30_000);
    let finished = false;
    const read = readBody(b.stream, undefined, 1_000_000, 'http://h.test/x', false, room).then((r) => {
      finished = true;
      return r;
    });
    await settle();
    expect(finished).toBe(false);
    expect(room.waits).toBe(1);
    expect(room.asked.at(-1)).toBe(40_000);
    // Paused: at most a buffer's worth more was pulled, not the whole body.
    expect(b.pulled()).toBeLessThan(7);
    room.open();
    const r = await read;
    expect(r.bytes.equals(bytes)).toBe(true);
    expect(room.asked.at(-1)).toBe(100_000);
  });

  it('counts decoded bytes, not wire bytes, for a compressed body', async () => {
    const plain = Buffer.alloc(1_000_000, 'b');
    const zipped = gzipSync(plain);
    const room = allowance(200_000);
    let finished = false;
    const read = readBody(body(zipped, 1024).stream, 'gzip', 2_000_000, 'http://h.test/z', false, room).then((r) => {
      finished = true;
      return r;
    });
    await settle();
    expect(finished).toBe(false);
    expect(Math.max(...room.asked)).toBeLessThan(400_000);
    room.open();
    expect((await read).bytes.length).toBe(1_000_000);
    expect(Math.max(...room.asked)).toBe(1_000_000);
  });

  it('fails with the allowance\'s error when the wait is given up', async () => {
    const stream = body(Buffer.alloc(50_000, 'c'), 10_000).stream;
    const refusing: BodyAllowance = { cover: (n) => (n > 10_000 ? Promise.reject(new Error('stopping')) : undefined) };
    await expect(readBody(stream, undefined, 1_000_000, 'http://h.test/s', false, refusing)).rejects.toThrow();
    expect(stream.destroyed).toBe(true);
  });
});
