import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

/** Serves `/metrics` for Prometheus on the given port (loopback unless a host is given). */
export function serveMetrics(registry: Registry, port: number, host = '127.0.0.1'): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
      (err: Error) => res.writeHead(500).end(err.message),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
