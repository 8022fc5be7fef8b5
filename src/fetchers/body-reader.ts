import type { Readable, Transform } from 'node:stream';
import { constants as zc, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { FreshetError } from '../core/errors';
import type { BodyAllowance } from './contract';
import { bodyTooLarge, decodeFailed, errorFromThrown } from './fetch-errors';

const ZLIB_CHUNK_BYTES = 64 * 1024;
const EMPTY = Buffer.alloc(0);
const SUPPORTED = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/** What we ask servers for; exactly the codings `readBody` can undo. */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

function decoderFor(coding: string, firstByte: number | undefined): Transform | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip({ chunkSize: ZLIB_CHUNK_BYTES, finishFlush: zc.Z_SYNC_FLUSH });
    case 'deflate':
      // "deflate" should be zlib-wrapped, but many servers send raw deflate; the zlib header's
      // first byte has compression method 8 in its low nibble.
      return firstByte === undefined || (firstByte & 0x0f) === 8
        ? createInflate({ chunkSize: ZLIB_CHUNK_BYTES })
        : createInflateRaw({ chunkSize: ZLIB_CHUNK_BYTES });
    case 'br':
      return createBrotliDecompress({ chunkSize: ZLIB_CHUNK_BYTES });
    default:
      return undefined;
  }
}

/**
 * Reads a response body into one Buffer, decompressing `contentEncoding` (possibly a list, applied
 * in order) and enforcing `maxBytes` on both the wire bytes and the decoded bytes as they stream:
 * the stream is destroyed as soon as either passes the cap, so neither a 100 MB body nor a
 * decompression bomb is ever held in memory.
 */
export function readBody(
  body: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
  url: string,
  /** Keep the first `maxBytes` instead of failing (robots.txt: parse what fits). */
  truncate = false,
  /** Memory for the decoded bytes: reading pauses while it has no room. */
  allowance?: BodyAllowance,
): Promise<{ bytes: Buffer; wireBytes: number }> {
  const codings = parseCodings(contentEncoding);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let wire = 0;
    let done = false;
    const decoders: Transform[] = [];

    const fail = (err: FreshetError): void => {
      if (done) return;
      done = true;
      for (const d of decoders) d.destroy();
      body.destroy();
      reject(err);
    };
    /** Pauses `source` until the allowance covers what was read (it emitted the chunk). */
    const covered = (source: Readable | Transform): void => {
      const wait = allowance?.cover(total);
      if (!wait) return;
      source.pause();
      wait.then(() => {
        if (!done) source.resume();
      }, (err: unknown) => fail(err instanceof FreshetError ? err : errorFromThrown(err, url)));
    };
    const onDecoded = (chunk: Buffer, source: Readable | Transform): void => {
      if (done) return;
      total += chunk.length;
      if (total <= maxBytes) {
        chunks.push(chunk);
        covered(source);
      }
      else if (!truncate) fail(bodyTooLarge(url, maxBytes, total));
      else {
        chunks.push(chunk.subarray(0, chunk.length - (total - maxBytes)));
        total = maxBytes;
        onEnd();
        for (const d of decoders) d.destroy();
        body.destroy();
      }
    };
    const onEnd = (): void => {
      if (done) return;
      done = true;
      resolve({ bytes: chunks.length === 1 ? chunks[0]! : chunks.length === 0 ? EMPTY : Buffer.concat(chunks, total), wireBytes: wire });
    };
    body.on('error', (err) => fail(errorFromThrown(err, url)));

    if (codings.length === 0) {
      body.on('data', (chunk: Buffer) => {
        wire += chunk.length;
        onDecoded(chunk, body);
      });
      body.on('end', onEnd);
      return;
    }

    // Decoders are built on the first chunk, because raw-vs-zlib deflate needs its first byte.
    body.on('data', (chunk: Buffer) => {
      if (done) return;
      wire += chunk.length;
      if (wire > maxBytes && !truncate) return fail(bodyTooLarge(url, maxBytes, wire));
      if (decoders.length === 0) {
        for (const coding of codings) {
          const d = decoderFor(coding, decoders.length === 0 ? chunk[0] : undefined);
          if (d) decoders.push(d);
        }
        for (let i = 0; i < decoders.length; i++) {
          const d = decoders[i]!;
          d.on('error', (err) => fail(decodeFailed(url, err)));
          if (i + 1 < decoders.length) d.pipe(decoders[i + 1]!);
        }
        const last = decoders[decoders.length - 1]!;
        last.on('data', (decoded: Buffer) => onDecoded(decoded, last));
        last.on('end', onEnd);
      }
      // Respect the decoder's backpressure so a bomb inflates only as fast as we count it.
      if (!decoders[0]!.write(chunk)) {
        body.pause();
        decoders[0]!.once('drain', () => body.resume());
      }
    });
    body.on('end', () => {
      if (done) return;
      if (decoders.length > 0) decoders[0]!.end();
      else onEnd();
    });
  });
}

/** `gzip, br` → ['gzip', 'br'] in the order they were applied, so decoding runs in that order reversed. */
function parseCodings(header: string | undefined): string[] {
  if (!header) return [];
  const list = header.toLowerCase().split(',').map((s) => s.trim()).filter((s) => s && s !== 'identity');
  // A coding we cannot undo leaves the body as it came; the cap still applies to it.
  return list.every((c) => SUPPORTED.has(c)) ? list.reverse() : [];
}
