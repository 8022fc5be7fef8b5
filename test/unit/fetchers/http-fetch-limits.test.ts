import { brotliCompressSync, constants as zc, deflateSync, gzipSync } from 'node:zlib';
import { makeFetcher, rejection, startServer, type LocalServer } from './local-server';

const MIB = 1024 * 1024;
/** 64 MiB of zeros gzip to ~64 KiB: a decompression bomb well under the wire cap. */
const BOMB = gzipSync(Buffer.alloc(64 * MIB), { level: 9 });
/** Smaller bombs (16 MiB of output each, 8× the cap used with them) for every coding we accept. */
const ZEROS = Buffer.alloc(16 * MIB);
const BOMBS: Record<string, [string, Buffer]> = {
  gzip: ['gzip', gzipSync(ZEROS)],
  deflate: ['deflate', deflateSync(ZEROS)],
  br: ['br', brotliCompressSync(ZEROS, { params: { [zc.BROTLI_PARAM_QUALITY]: 4 } })],
  'gzip twice': ['gzip, gzip', gzipSync(BOMB)],
};

let server: LocalServer;
let bigBodyBytesWritten = 0;
let bytesWrittenWhenClosed = -1;
beforeAll(async () => {
  server = await startServer((req, res) => {
    switch (req.url) {
      case '/no-headers':
        return; // never answers
      case '/stall-body':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
        return res.write('partial'); // and never finishes
      case '/trickle': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const t = setInterval(() => (res.writableEnded || res.destroyed ? clearInterval(t) : res.write('.')), 20);
        res.on('close', () => clearInterval(t));
        return;
      }
      case '/declared-huge':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(100 * MIB) });
        return res.write('x'.repeat(1024)); // the rest never comes: the fetcher must not wait for it
      case '/streamed-huge': {
        res.writeHead(200, { 'content-type': 'text/plain' }); // chunked, no length
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        bigBodyBytesWritten = 0;
        const pump = (): void => {
          while (!res.destroyed && bigBodyBytesWritten < 100 * MIB) {
            bigBodyBytesWritten += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        bytesWrittenWhenClosed = -1;
        res.on('close', () => (bytesWrittenWhenClosed = bigBodyBytesWritten));
        return pump();
      }
      case '/bomb/gzip':
      case '/bomb/deflate':
      case '/bomb/br':
      case '/bomb/gzip%20twice': {
        const [coding, bytes] = BOMBS[decodeURIComponent(req.url.slice('/bomb/'.length))]!;
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': coding });
        return res.end(bytes);
      }
      case '/head-huge':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(100 * MIB) });
        return res.end();
      case '/bomb':
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': String(BOMB.length) });
        return res.end(BOMB);
      case '/corrupt-gzip':
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        return res.end(Buffer.from('this is not gzip at all, just text pretending'));
      case '/giant-header':
        res.writeHead(200, { 'x-big': 'y'.repeat(100 * 1024) });
        return res.end('ok');
      default:
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('small');
    }
  });
});
afterAll(() => server.close());

const once = { retry: { max_attempts: 1 } };

describe('HttpFetcher: timeouts', () => {
  it('times out waiting for headers (retryable)', async () => {
    const { fetcher } = makeFetcher({ ...once, headers_timeout_ms: 150 });
    const started = Date.now();
    const err = await rejection(fetcher.fetch({ url: server.url('/no-headers') }));
    expect(err).toMatchObject({ code: 'E_FETCH_TIMEOUT', kind: 'retryable', fields: { attempts: 1 } });
    expect(Date.now() - started).toBeLessThan(3000); // undici's coarse timers add up to ~1 s
    await fetcher.close();
  });

  it('times out when the body stalls', async () => {
    const { fetcher } = makeFetcher({ ...once, body_timeout_ms: 150 });
    const err = await rejection(fetcher.fetch({ url: server.url('/stall-body') }));
    expect(err).toMatchObject({ code: 'E_FETCH_TIMEOUT', kind: 'retryable' });
    await fetcher.close();
  });

  it('caps a trickling body with the total timeout even though bytes keep coming', async () => {
    const { fetcher } = makeFetcher({ ...once, body_timeout_ms: 5000, total_timeout_ms: 300 });
    const started = Date.now();
    const err = await rejection(fetcher.fetch({ url: server.url('/trickle') }));
    expect(err).toMatchObject({ code: 'E_FETCH_TIMEOUT', kind: 'retryable', fields: { timeout_ms: 300 } });
    expect(Date.now() - started).toBeLessThan(3000);
    await fetcher.close();
  });
});

describe('HttpFetcher: waiting for the byte budget', () => {
  it('does not count a wait for memory against total_timeout_ms (issue 24)', async () => {
    const { fetcher } = makeFetcher({ ...once, total_timeout_ms: 200 });
    const asked: number[] = [];
    // The run's budget is spent by other pages: room comes after three caps' time.
    const allowance = {
      cover(bytes: number): Promise<void> | undefined {
        asked.push(bytes);
        return asked.length === 1 ? new Promise<void>((resolve) => setTimeout(resolve, 600)) : undefined;
      },
    };
    const res = await fetcher.fetch({ url: server.url('/small'), allowance });
    expect(res).toMatchObject({ status: 200, text: 'small', attempts: 1 });
    // Room for the body's 5 bytes and the text decoded from them, before reading.
    expect(asked[0]).toBe(10);
    await fetcher.close();
  });

  it('gives the bytes of a failed attempt back before the retry asks again (a visit in backoff holds nothing)', async () => {
    const { fetcher, sleeps } = makeFetcher({ retry: { max_attempts: 2 }, body_timeout_ms: 150 });
    const events: string[] = [];
    const allowance = { cover: (n: number) => void events.push(`cover ${n}`), giveBack: () => void events.push('giveBack') };
    const err = await rejection(fetcher.fetch({ url: server.url('/stall-body'), allowance }));
    expect(err).toMatchObject({ code: 'E_FETCH_TIMEOUT', fields: { attempts: 2 } });
    expect(sleeps).toHaveLength(1);
    // The declared 100 bytes (and the text decoded from them) first, then the 7 read, per attempt;
    // given back after each failure.
    expect(events).toEqual(['cover 200', 'cover 14', 'giveBack', 'cover 200', 'cover 14', 'giveBack']);
    await fetcher.close();
  });

  it('asks room for the bytes alone when the body is not decoded to text', async () => {
    const { fetcher } = makeFetcher(once);
    const asked: number[] = [];
    await fetcher.fetch({ url: server.url('/small'), expect: 'bytes', allowance: { cover: (n: number) => void asked.push(n) } });
    expect(asked[0]).toBe(5);
    await fetcher.close();
  });

  it('still caps the time the origin takes after the wait', async () => {
    const { fetcher } = makeFetcher({ ...once, body_timeout_ms: 5000, total_timeout_ms: 300 });
    let waits = 0;
    const allowance = { cover: (): Promise<void> | undefined => (waits++ === 0 ? new Promise<void>((resolve) => setTimeout(resolve, 400)) : undefined) };
    const started = Date.now();
    const err = await rejection(fetcher.fetch({ url: server.url('/trickle'), allowance }));
    expect(err).toMatchObject({ code: 'E_FETCH_TIMEOUT', kind: 'retryable', fields: { timeout_ms: 300 } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(Date.now() - started).toBeLessThan(3000);
    await fetcher.close();
  });
});

describe('HttpFetcher: size caps', () => {
  it('rejects a declared Content-Length above max_body_bytes up front', async () => {
    const { fetcher } = makeFetcher({ ...once, max_body_bytes: MIB, body_timeout_ms: 5000 });
    const started = Date.now();
    const err = await rejection(fetcher.fetch({ url: server.url('/declared-huge') }));
    expect(err).toMatchObject({ code: 'E_FETCH_BODY_TOO_LARGE', kind: 'non_retryable', fields: { seen_bytes: 100 * MIB } });
    expect(Date.now() - started).toBeLessThan(2000);
    await fetcher.close();
  });

  it('aborts a streamed body as soon as it passes the cap', async () => {
    const { fetcher } = makeFetcher({ ...once, max_body_bytes: MIB });
    const err = await rejection(fetcher.fetch({ url: server.url('/streamed-huge') }));
    expect(err).toMatchObject({ code: 'E_FETCH_BODY_TOO_LARGE', kind: 'non_retryable' });
    expect(err.fields.seen_bytes as number).toBeLessThan(MIB + 128 * 1024);
    await fetcher.close();
    // The server was cut off long before its 100 MiB (it stops when the socket closes).
    await new Promise((r) => setTimeout(r, 50));
    expect(bytesWrittenWhenClosed).toBeGreaterThan(0);
    expect(bytesWrittenWhenClosed).toBeLessThan(20 * MIB);
  });

  it('does not apply the Content-Length cap to a HEAD answer, which has no body', async () => {
    const { fetcher } = makeFetcher({ ...once, max_body_bytes: MIB });
    const res = await fetcher.fetch({ url: server.url('/head-huge'), method: 'HEAD' });
    expect(res).toMatchObject({ status: 200, text: '', headers: { 'content-length': String(100 * MIB) } });
    expect(res.body.length).toBe(0);
    await fetcher.close();
  });

  it('caps the decoded bytes of a gzip bomb', async () => {
    expect(BOMB.length).toBeLessThan(MIB);
    const { fetcher } = makeFetcher({ ...once, max_body_bytes: 4 * MIB });
    const heapBefore = process.memoryUsage().arrayBuffers;
    const err = await rejection(fetcher.fetch({ url: server.url('/bomb') }));
    expect(err).toMatchObject({ code: 'E_FETCH_BODY_TOO_LARGE', kind: 'non_retryable', fields: { max_body_bytes: 4 * MIB } });
    expect(err.fields.seen_bytes as number).toBeLessThan(5 * MIB);
    expect(process.memoryUsage().arrayBuffers - heapBefore).toBeLessThan(32 * MIB);
    await fetcher.close();
  });

  it.each(Object.keys(BOMBS))('caps a %s bomb at max_body_bytes of output', async (name) => {
    expect(BOMBS[name]![1].length).toBeLessThan(MIB);
    const { fetcher } = makeFetcher({ ...once, max_body_bytes: 2 * MIB });
    const err = await rejection(fetcher.fetch({ url: server.url(`/bomb/${encodeURIComponent(name)}`) }));
    expect(err).toMatchObject({ code: 'E_FETCH_BODY_TOO_LARGE', kind: 'non_retryable' });
    await fetcher.close();
  });

  it('maps an undecodable gzip body to a decode error', async () => {
    const { fetcher } = makeFetcher(once);
    const err = await rejection(fetcher.fetch({ url: server.url('/corrupt-gzip') }));
    expect(err).toMatchObject({ code: 'E_FETCH_DECODE', kind: 'non_retryable' });
    await fetcher.close();
  });

  it('refuses giant response headers', async () => {
    const { fetcher } = makeFetcher({ ...once, max_header_bytes: 16 * 1024 });
    const err = await rejection(fetcher.fetch({ url: server.url('/giant-header') }));
    expect(err).toMatchObject({ code: 'E_FETCH_HEADERS_TOO_LARGE', kind: 'non_retryable' });
    await fetcher.close();
  });

  it('still serves small bodies after the cap tripped (the agent is not poisoned)', async () => {
    const { fetcher } = makeFetcher({ ...once, max_body_bytes: 1024 });
    await rejection(fetcher.fetch({ url: server.url('/streamed-huge') }));
    const res = await fetcher.fetch({ url: server.url('/small') });
    expect(res.text).toBe('small');
    await fetcher.close();
  });
});
