import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../../src/core/clock';
import { seededRng } from '../../../src/core/rng';
import { HttpFetcher, httpFetchConfigSchema, type FetcherDeps } from '../../../src/fetchers/http-fetch';

export interface LocalServer {
  origin: string;
  url(path: string): string;
  /** Paths requested so far, in order. */
  hits: string[];
  /** Request headers of every request, in order. */
  headers: IncomingMessage['headers'][];
  close(): Promise<void>;
}

/** A node:http server on 127.0.0.1, port 0: the fetcher is the system under test. */
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalServer> {
  const hits: string[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    headers.push(req.headers);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: (path) => origin + path,
    hits,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface TestFetcher {
  fetcher: HttpFetcher;
  clock: ManualClock;
  /** Every delay the fetcher slept for, in ms. */
  sleeps: number[];
}

/** A fetcher on a manual clock whose sleeps return at once and advance the clock. */
export function makeFetcher(config: Record<string, unknown> = {}, deps: Partial<FetcherDeps> = {}): TestFetcher {
  const clock = new ManualClock(1_700_000_000_000);
  const sleeps: number[] = [];
  const sleep = async (ms: number): Promise<void> => {
    sleeps.push(ms);
    clock.advanceMs(ms);
  };
  const parsed = httpFetchConfigSchema.parse({ allow_private_networks: true, respect_robots: false, ...config });
  const fetcher = new HttpFetcher(parsed, { clock, rng: seededRng(7), sleep, ...deps });
  return { fetcher, clock, sleeps };
}

/** The FreshetError a promise rejects with (fails the test if it resolves). */
export async function rejection(p: Promise<unknown>): Promise<{ code: string; kind: string; fields: Record<string, unknown>; retryAfterMs?: number }> {
  try {
    await p;
  } catch (err) {
    return err as { code: string; kind: string; fields: Record<string, unknown>; retryAfterMs?: number };
  }
  throw new Error('expected a rejection');
}
