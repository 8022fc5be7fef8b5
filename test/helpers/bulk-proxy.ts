import { createServer, request, type IncomingMessage, type IncomingHttpHeaders, type Server } from 'node:http';

/**
 * An HTTP proxy in front of the real search node that makes it reject bulk items the way a busy or
 * strict cluster does: `throttleTimes(id)` answers an item 429 (es_rejected_execution_exception)
 * that many times without passing it on, and `poison(id)` adds a field the strict mappings do not
 * know, so the real node itself rejects the item (strict_dynamic_mapping_exception).
 */
export interface BulkRules {
  throttleTimes(id: string, index: string): number;
  poison(id: string, index: string): boolean;
}

export interface BulkProxy {
  url: string;
  stats: { throttled: number; poisoned: number; bulkRequests: number };
  close(): Promise<void>;
}

type Item = Record<string, { _index: string; _id: string; status: number; error?: unknown }>;

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

function forward(target: URL, req: IncomingMessage, headers: IncomingHttpHeaders, body?: Buffer): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (res) => {
      void readAll(res).then((b) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: b }), reject);
    });
    up.on('error', reject);
    up.end(body);
  });
}

export async function bulkProxy(targetUrl: string, rules: BulkRules): Promise<BulkProxy> {
  const target = new URL(targetUrl);
  const seen = new Map<string, number>();
  const stats = { throttled: 0, poisoned: 0, bulkRequests: 0 };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      // Plain JSON answers, so the bulk response can be rewritten.
      const headers = { ...req.headers, 'accept-encoding': 'identity' };
      if (req.method !== 'POST' || !/\/_bulk(\?|$)/.test(req.url ?? '')) {
        const up = await forward(target, req, headers, body);
        res.writeHead(up.status, up.headers).end(up.body);
        return;
      }
      stats.bulkRequests += 1;
      const lines = body.toString('utf8').split('\n').filter((l) => l.length > 0);
      const slots: (Item | undefined)[] = [];
      const passed: string[] = [];
      for (let i = 0; i < lines.length; i += 2) {
        const action = JSON.parse(lines[i]!) as { index: { _index: string; _id: string } };
        const { _index: index, _id: id } = action.index;
        const n = seen.get(id) ?? 0;
        if (n < rules.throttleTimes(id, index)) {
          seen.set(id, n + 1);
          stats.throttled += 1;
          slots.push({ index: { _index: index, _id: id, status: 429, error: { type: 'es_rejected_execution_exception', reason: 'rejected execution (queue capacity 200)' } } });
          continue;
        }
        let source = lines[i + 1]!;
        if (rules.poison(id, index)) {
          stats.poisoned += 1;
          source = source.replace(/^\{/, '{"not_in_the_mapping":1,');
        }
        slots.push(undefined);
        passed.push(lines[i]!, source);
      }
      let upstream: { items: Item[]; errors: boolean } = { items: [], errors: false };
      let upHeaders: IncomingHttpHeaders = { 'content-type': 'application/json' };
      if (passed.length > 0) {
        const payload = Buffer.from(`${passed.join('\n')}\n`);
        const up = await forward(target, req, { ...headers, 'content-length': String(payload.length) }, payload);
        if (up.status !== 200) {
          res.writeHead(up.status, up.headers).end(up.body);
          return;
        }
        upstream = JSON.parse(up.body.toString('utf8')) as typeof upstream;
        upHeaders = up.headers;
      }
      let next = 0;
      const items = slots.map((s) => s ?? upstream.items[next++]!);
      const out = Buffer.from(JSON.stringify({ took: 1, errors: upstream.errors || items.some((it) => Object.values(it)[0]!.status >= 300), items }));
      const { 'content-length': _len, 'content-encoding': _enc, 'transfer-encoding': _te, ...keep } = upHeaders;
      res.writeHead(200, { ...keep, 'content-type': 'application/json', 'content-length': String(out.length) }).end(out);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    stats,
    close: () => new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
