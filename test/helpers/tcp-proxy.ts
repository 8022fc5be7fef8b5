import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a real service, to take it "away" without stopping it for every other
 * test: while paused, open connections are destroyed and new ones are dropped at once.
 */
export interface TcpProxy {
  url: string;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function tcpProxy(targetUrl: string): Promise<TcpProxy> {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let paused = false;
  const server: Server = createServer((client) => {
    if (paused) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `${target.protocol}//127.0.0.1:${port}`,
    pause() {
      paused = true;
      for (const s of sockets) s.destroy();
    },
    resume() {
      paused = false;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
