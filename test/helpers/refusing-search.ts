import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** The real refusal of OpenSearch 2.19 for a template naming an analyzer it lacks (test/fixtures/search-errors). */
const REFUSAL = readFileSync(join(__dirname, '..', 'fixtures', 'search-errors', 'opensearch-2.19-template-unknown-analyzer.json'));

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

/**
 * A proxy in front of the real search node that refuses every index template with the node's own
 * captured answer (HTTP 400, the cause three levels down) and passes everything else on.
 */
export async function refusingTemplates(targetUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(targetUrl);
  const server: Server = createServer((req, res) => {
    void readAll(req).then((body) => {
      if (req.method === 'PUT' && (req.url ?? '').startsWith('/_index_template/')) {
        res.writeHead(400, { 'content-type': 'application/json; charset=UTF-8' }).end(REFUSAL);
        return;
      }
      const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', () => res.writeHead(502).end());
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
