import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, errors } from '@elastic/elasticsearch';
import { clientOptionsFor, credentialsFromUrl, probeSearchNode, redactUrl } from '../../../src/search/client';
import { FreshetTransport, OpenSearchTransport } from '../../../src/search/opensearch-transport';

/**
 * A tiny HTTP server that answers like OpenSearch does at the protocol level (no
 * x-elastic-product header; 406 for the vendored compatible-with media types), to unit-test the
 * transport choice. The real round trip is in test/integration/search.
 */
function openSearchLike(): Promise<{ server: Server; url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    const ct = String(req.headers['content-type'] ?? '') + String(req.headers['accept'] ?? '');
    if (req.url?.startsWith('/_index_template/')) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(readFileSync(join(__dirname, '..', '..', 'fixtures', 'search-errors', 'opensearch-2.19-template-unknown-analyzer.json')));
      return;
    }
    if (ct.includes('compatible-with')) {
      res.writeHead(406, { 'content-type': 'application/json' });
      res.end('{"error":"Content-Type header [application/vnd.elasticsearch+json; compatible-with=8] is not supported","status":406}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"cluster_name":"x","status":"green","number_of_nodes":1}');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen });
  }));
}

describe('clientOptionsFor', () => {
  it('keeps a failed bulk request\'s body as it was in the error, credentials out: not cloned key by key', async () => {
    // The client's default redaction clones the error's request key by key, and a Buffer body
    // byte by byte: ~100 bytes of garbage per body byte, per failed request. Through a 60 s search
    // outage that took the sink's process past 600 MiB (issue 24).
    const client = new Client(clientOptionsFor({ distribution: 'opensearch', version: '2.19.1', major: 2 }, { url: 'http://127.0.0.1:9', username: 'freshet', password: 's3cret' }));
    const body = Buffer.alloc(256 * 1024, 'x');
    const err = await client.transport.request({ method: 'POST', path: '/_bulk', bulkBody: body }, { maxRetries: 0 }).catch((e: unknown) => e) as errors.ConnectionError;
    expect(err).toBeInstanceOf(errors.ConnectionError);
    const meta = err.meta!.meta;
    // toBe, not toEqual: a failing diff of a 256 K-key clone would take minutes to print.
    expect(meta.request.params.body === body).toBe(true);
    const seen = JSON.stringify({ ...meta, request: { ...meta.request, params: { ...meta.request.params, body: undefined } } });
    expect(seen).not.toContain('s3cret');
    expect(seen).not.toContain(Buffer.from('freshet:s3cret').toString('base64'));
    await client.close();
  });

  it('uses the OpenSearch transport for OpenSearch and the stock one (with one-line errors) for Elasticsearch', () => {
    const os = clientOptionsFor({ distribution: 'opensearch', version: '2.19.1', major: 2 }, { url: 'http://h:1' });
    const es = clientOptionsFor({ distribution: 'elasticsearch', version: '8.15.0', major: 8 }, { url: 'http://h:1' });
    expect(os.Transport).toBe(OpenSearchTransport);
    expect(es.Transport).toBe(FreshetTransport);
    expect(Object.getPrototypeOf(OpenSearchTransport)).toBe(FreshetTransport);
  });

  it('passes an API key or basic auth, never both', () => {
    const info = { distribution: 'elasticsearch' as const, version: '9.0.0', major: 9 };
    expect(clientOptionsFor(info, { url: 'http://h:1', apiKey: 'k' }).auth).toEqual({ apiKey: 'k' });
    expect(clientOptionsFor(info, { url: 'http://h:1', username: 'u', password: 'p' }).auth).toEqual({ username: 'u', password: 'p' });
    expect(clientOptionsFor(info, { url: 'http://h:1' }).auth).toBeUndefined();
  });
});

describe('OpenSearchTransport', () => {
  let fake: Awaited<ReturnType<typeof openSearchLike>>;
  beforeAll(async () => {
    fake = await openSearchLike();
  });
  afterAll(() => new Promise<void>((r) => fake.server.close(() => r())));

  it('talks plain JSON and skips the product check', async () => {
    const client = new Client(clientOptionsFor({ distribution: 'opensearch', version: '2.19.1', major: 2 }, { url: fake.url }));
    const health = await client.cluster.health();
    expect(health.status).toBe('green');
    const last = fake.seen[fake.seen.length - 1]!;
    expect(last['accept']).not.toContain('compatible-with');
    await client.close();
  });

  it('turns an error answer into one line naming the root cause, still a ResponseError', async () => {
    const client = new Client(clientOptionsFor({ distribution: 'opensearch', version: '2.19.1', major: 2 }, { url: fake.url }));
    const err = await client.indices.putIndexTemplate({ name: 'freshet-posts', index_patterns: ['x'] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(errors.ResponseError);
    expect((err as Error).message).toBe('search node answered PUT /_index_template/freshet-posts with HTTP 400: '
      + 'illegal_argument_exception: analyzer [cjkx] has not been configured in mappings (composable template [t-probe-x] template after composition is invalid)');
    await client.close();
  });

  it('is needed: the stock client refuses a node without x-elastic-product', async () => {
    const client = new Client({ node: fake.url, maxRetries: 0 });
    await expect(client.cluster.health()).rejects.toBeInstanceOf(errors.ResponseError);
    await client.close();
  });
});

describe('redactUrl', () => {
  it('hides the credentials of a URL', () => {
    expect(redactUrl('http://elastic:s3cret@h:9200/')).toBe('http://[redacted]@h:9200/');
    expect(redactUrl('not a url')).toBe('not a url');
  });
});

describe('credentialsFromUrl', () => {
  it('moves user:pass@ of the URL into basic auth, unless credentials were given apart', () => {
    expect(credentialsFromUrl({ url: 'http://elastic:p%40ss@h:9200/' })).toEqual({ url: 'http://h:9200', username: 'elastic', password: 'p@ss' });
    expect(credentialsFromUrl({ url: 'http://elastic:x@h:9200', apiKey: 'k' })).toEqual({ url: 'http://h:9200', apiKey: 'k' });
    expect(credentialsFromUrl({ url: 'http://h:9200' })).toEqual({ url: 'http://h:9200' });
  });

  it('so the GET / probe authenticates with them (undici ignores userinfo)', async () => {
    const fake = await openSearchLike();
    try {
      await probeSearchNode({ url: fake.url.replace('http://', 'http://elastic:pw@') }).catch(() => undefined);
      expect(fake.seen[0]!['authorization']).toBe(`Basic ${Buffer.from('elastic:pw').toString('base64')}`);
    } finally {
      await new Promise<void>((r) => fake.server.close(() => r()));
    }
  });
});
