import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client, errors } from '@elastic/elasticsearch';
import { clientOptionsFor } from '../../../src/search/client';
import { analyzerPlanFor, probeFeature, requireFeatures } from '../../../src/search/features';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'search-errors');
const es8 = (name: string): string => readFileSync(join(FIXTURES, `elasticsearch-8.19-${name}.json`), 'utf8');

/**
 * A node that answers the probes the way Elasticsearch 8.19 core does (its real answers, from
 * test/fixtures/search-errors), or with a 503 while it is unavailable. The real nodes are in
 * test/integration/search; this pins how each kind of answer is read.
 */
function node(unavailable: () => boolean): Promise<{ server: Server; client: Client }> {
  const server = createServer((req, res) => {
    const send = (status: number, body: string): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'x-elastic-product': 'Elasticsearch' });
      res.end(body);
    };
    if (unavailable()) return send(503, '{"error":{"type":"cluster_block_exception","reason":"blocked by: [SERVICE_UNAVAILABLE/1/state not recovered / initialized];"},"status":503}');
    if (req.url === '/') return send(200, '{"version":{"number":"8.19.7","build_flavor":"default"}}');
    if (req.url?.startsWith('/_analyze')) {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => (body.includes('"cjk"') ? send(400, es8('analyze-unknown-analyzer')) : send(200, '{"tokens":[]}')));
      return;
    }
    if (req.url?.includes('/_search')) return send(400, es8('unknown-query'));
    if (req.url?.includes('/_delete_by_query')) return send(400, es8('no-handler'));
    send(404, '{}');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    resolve({ server, client: new Client(clientOptionsFor({ distribution: 'elasticsearch', version: '8.19.7', major: 8 }, { url })) });
  }));
}

describe('feature probes', () => {
  let down = false;
  let n: Awaited<ReturnType<typeof node>>;
  beforeAll(async () => {
    n = await node(() => down);
  });
  afterAll(async () => {
    await n.client.close();
    await new Promise<void>((r) => n.server.close(() => r()));
  });
  afterEach(() => {
    down = false;
  });

  const posts = { mappings: { properties: { text: { type: 'text', analyzer: 'cjk' } } } };

  it('reads a refusal as "not available", with the node\'s reason', async () => {
    await expect(probeFeature(n.client, 'percolator')).resolves.toEqual({ ok: false, reason: 'named_object_not_found_exception: [1:32] unknown field [percolate] (unknown query [percolate])' });
    const { plan, node: label } = await analyzerPlanFor(n.client, [posts]);
    expect(label).toBe('elasticsearch 8.19.7');
    expect(plan.fallbacks).toEqual([{ analyzer: 'cjk', fallback: 'standard', reason: 'illegal_argument_exception: failed to find global analyzer [cjk]' }]);
  });

  it('refuses alerts in one line naming both missing features', async () => {
    await expect(requireFeatures(n.client, ['percolator', 'delete_by_query'], 'alerts')).rejects.toThrow(
      'alerts need features this search node (elasticsearch 8.19.7) lacks: the percolator (module percolator): named_object_not_found_exception: [1:32] unknown field [percolate] (unknown query [percolate]); '
      + 'delete-by-query (module reindex): no handler found for uri [/t-probe-nothing*/_delete_by_query?allow_no_indices=true] and method [POST]');
  });

  it('never takes an unavailable node (503) for a node without the feature: the error propagates', async () => {
    down = true;
    await expect(probeFeature(n.client, 'percolator')).rejects.toBeInstanceOf(errors.ResponseError);
    await expect(analyzerPlanFor(n.client, [posts])).rejects.toThrow(/HTTP 503: cluster_block_exception/);
  });
});
