import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { firstValueFrom, from, toArray } from 'rxjs';
import { ManualClock } from '../../../src/core/clock';
import { JobTracker, type Doc, type DocEnvelope } from '../../../src/core/envelope';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { documentLines, elasticsearchSink, elasticsearchSinkConfigSchema } from '../../../src/sinks/elasticsearch';

/** A search client whose bulk endpoint records each body and accepts every item. */
function fakeClient(bodies: Buffer[]): Client {
  return {
    transport: {
      request: async (params: { bulkBody: Buffer | string }) => {
        const body = Buffer.isBuffer(params.bulkBody) ? params.bulkBody : Buffer.from(params.bulkBody);
        bodies.push(body);
        const items = body.toString('utf8').trimEnd().split('\n').filter((_, i) => i % 2 === 0).map(() => ({ index: { status: 201 } }));
        return { items };
      },
    },
  } as unknown as Client;
}

describe('elasticsearchSink bulk body', () => {
  it('sends each document as the NDJSON of its action object and body, once, and counts those bytes', async () => {
    const docs: Doc[] = [
      { index: 'posts', id: 'weibo:1', body: { text: '你好 "quoted" \\ back\nslash', n: 1 } },
      { index: 'users', id: 'weibo:ü\u2028"x"', body: { name: '\ud83d\ude00', nested: { a: [1, null] } } },
      { index: 'posts', id: 'weibo:2', body: {} },
      { index: 'posts', id: 42 as unknown as string, body: { odd: 'non-string id' } },
    ];
    const bodies: Buffer[] = [];
    const metrics = createMetrics();
    const sink = elasticsearchSink(elasticsearchSinkConfigSchema.parse({ type: 'elasticsearch' }), {
      client: fakeClient(bodies), indexPrefix: 'pre-', clock: new ManualClock(0), rng: seededRng(1), logger: silentLogger,
      metrics, deadLetter: async () => undefined, sleep: async () => undefined,
    });
    const tracker = new JobTracker({ subject: 's', state: { firstSeenMs: 0, postsSeen: 0, visits: 0, failures: 0, status: 'active' }, claimedAtMs: 0, leaseToken: 't' });
    const envs: DocEnvelope[] = docs.map((doc) => ({ doc, job: tracker }));
    const settled = await firstValueFrom(from(envs).pipe(sink, toArray()));

    expect(settled.map((s) => [s.env.doc.id, s.how])).toEqual(docs.map((d) => [d.id, 'indexed']));
    const expected = docs.map((d) => `${JSON.stringify({ index: { _index: `pre-${d.index}`, _id: d.id } })}\n${JSON.stringify(d.body)}\n`).join('');
    expect(Buffer.concat(bodies).toString('utf8')).toBe(expected);
    const bytes = (await metrics.bulkBytes.get()).values[0]?.value;
    expect(bytes).toBe(Buffer.byteLength(expected));
  });
});

describe('elasticsearchSink dead letters', () => {
  /** Answers 400 (mapping conflict) for the documents whose id starts with `bad`, 201 for the rest. */
  function rejectingClient(): Client {
    return {
      transport: {
        request: async (params: { bulkBody: Buffer }) => {
          const actions = params.bulkBody.toString('utf8').trimEnd().split('\n').filter((_, i) => i % 2 === 0);
          const items = actions.map((a) => ((JSON.parse(a) as { index: { _id: string } }).index._id.startsWith('bad')
            ? { index: { status: 400, error: { type: 'mapper_parsing_exception', reason: 'failed to parse field [n]' } } }
            : { index: { status: 201 } }));
          return { items };
        },
      },
    } as unknown as Client;
  }

  it('keeps retrying a dead-letter write while Redis is away, settles the document only once it is stored, and logs "dead-lettered" after', async () => {
    const events: string[] = [];
    let failures = 2;
    const logger = {
      ...silentLogger,
      warn: (_obj: object, msg: string) => void events.push(`warn: ${msg}`),
      info: (_obj: object, msg: string) => void events.push(`info: ${msg}`),
    };
    const metrics = createMetrics();
    const sink = elasticsearchSink(elasticsearchSinkConfigSchema.parse({ type: 'elasticsearch' }), {
      client: rejectingClient(), indexPrefix: 'pre-', clock: new ManualClock(0), rng: seededRng(1), logger: logger as typeof silentLogger,
      metrics, sleep: async (ms) => void events.push(`sleep ${ms > 0 ? '>0' : '0'}`),
      deadLetter: async (entry) => {
        if (failures-- > 0) {
          events.push('write failed');
          throw new Error('connect ECONNREFUSED 127.0.0.1:6390');
        }
        events.push(`written ${entry.id}`);
      },
    });
    const tracker = new JobTracker({ subject: 'weibo:user:1', state: { firstSeenMs: 0, postsSeen: 0, visits: 0, failures: 0, status: 'active' }, claimedAtMs: 0, leaseToken: 't' });
    const envs: DocEnvelope[] = ['ok-1', 'bad-1'].map((id) => ({ doc: { index: 'posts', id, body: { n: 'x' } }, job: tracker }));
    const settled = await firstValueFrom(from(envs).pipe(sink, toArray()));

    expect(settled.map((s) => [s.env.doc.id, s.how])).toEqual([['ok-1', 'indexed'], ['bad-1', 'dead_lettered']]);
    expect(events.filter((e) => !e.startsWith('sleep'))).toEqual([
      'write failed', 'warn: dead-letter write failed; retrying until Redis answers', 'write failed', 'written bad-1',
      'info: dead-letter write stored after Redis returned', 'warn: document rejected by the search node; dead-lettered',
    ]);
    expect(events.filter((e) => e.startsWith('sleep'))).toHaveLength(2);
    const dead = (await metrics.docs.get()).values.find((v) => v.labels['outcome'] === 'dead_lettered');
    expect(dead?.value).toBe(1);
  });
});

describe('elasticsearchSink holds no body across the bulk request', () => {
  it('settles a document indexed as is by its index and id only, and dead-letters it with the body it sent', async () => {
    const client = {
      transport: {
        request: async (params: { bulkBody: Buffer }) => {
          const actions = params.bulkBody.toString('utf8').trimEnd().split('\n').filter((_, i) => i % 2 === 0);
          return { items: actions.map((a) => ((JSON.parse(a) as { index: { _id: string } }).index._id === 'bad' ? { index: { status: 400, error: { type: 'mapper_parsing_exception', reason: 'x' } } } : { index: { status: 201 } })) };
        },
      },
    } as unknown as Client;
    const payloads: unknown[] = [];
    const sink = elasticsearchSink(elasticsearchSinkConfigSchema.parse({ type: 'elasticsearch' }), {
      client, indexPrefix: 'pre-', clock: new ManualClock(0), rng: seededRng(1), logger: silentLogger,
      metrics: createMetrics(), sleep: async () => undefined, deadLetter: async (entry) => void payloads.push(entry.payload),
    });
    const tracker = new JobTracker({ subject: 'weibo:user:1', state: { firstSeenMs: 0, postsSeen: 0, visits: 0, failures: 0, status: 'active' }, claimedAtMs: 0, leaseToken: 't' });
    const body = { text: '你好\n"x"', media: { pictures: [{ id: 'p1', url: 'https://x/p1.jpg' }] }, n: 2 };
    const settled = await firstValueFrom(from(['ok', 'bad'].map((id) => ({ doc: { index: 'posts', id, body }, job: tracker }))).pipe(sink, toArray()));

    expect(settled.map((s) => s.env.doc)).toEqual([{ index: 'posts', id: 'ok' }, { index: 'posts', id: 'bad' }]);
    expect(settled.every((s) => s.env.job === tracker)).toBe(true);
    expect(payloads).toEqual([{ index: 'posts', id: 'bad', body }]);
  });
});

describe('elasticsearchSink item errors', () => {
  it('dead-letters a refused item with the node\'s deepest cause and the field it names, on one line', async () => {
    // The `error` OpenSearch 2.19 gave a bulk item whose date did not parse (test/fixtures/search-errors).
    const itemError = JSON.parse(readFileSync(join(__dirname, '..', '..', 'fixtures', 'search-errors', 'opensearch-2.19-bulk-item-bad-date.json'), 'utf8')) as unknown;
    const client = { transport: { request: async () => ({ errors: true, items: [{ index: { status: 400, error: itemError } }] }) } } as unknown as Client;
    const dead: { message: string }[] = [];
    const sink = elasticsearchSink(elasticsearchSinkConfigSchema.parse({ type: 'elasticsearch' }), {
      client, indexPrefix: 'pre-', clock: new ManualClock(0), rng: seededRng(1), logger: silentLogger,
      metrics: createMetrics(), deadLetter: async (e) => { dead.push(e as { message: string }); }, sleep: async () => undefined,
    });
    const tracker = new JobTracker({ subject: 's', state: { firstSeenMs: 0, postsSeen: 0, visits: 0, failures: 0, status: 'active' }, claimedAtMs: 0, leaseToken: 't' });
    const settled = await firstValueFrom(from([{ doc: { index: 'posts', id: 'weibo:1', body: { d: 'not a date' } }, job: tracker }]).pipe(sink, toArray()));
    expect(settled.map((s) => s.how)).toEqual(['dead_lettered']);
    expect(dead[0]!.message).toBe("date_time_parse_exception: Failed to parse with all enclosed parsers (failed to parse field [d] of type [date] in document with id '1'. Preview of field's value: 'not a date')");
  });
});

describe('documentLines (what the sink and a requeued dead letter send)', () => {
  const config = elasticsearchSinkConfigSchema.parse({ type: 'elasticsearch', merged_indices: ['posts'], versioned_indices: ['pages'] });
  const lines = (doc: Doc) => documentLines(config, 'p-', doc).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, Record<string, unknown>>);

  it('indexes a document of a plain index as is', () => {
    expect(lines({ index: 'users', id: 'weibo:1', body: { name: 'a' } })).toEqual([{ index: { _index: 'p-users', _id: 'weibo:1' } }, { name: 'a' }]);
  });

  it('merges a post of a merged index and versions a page of a versioned one (an update, never a replacement)', () => {
    const post = lines({ index: 'posts', id: 'weibo:9', body: { text: 'x' } });
    expect(post[0]).toEqual({ update: expect.objectContaining({ _index: 'p-posts', _id: 'weibo:9' }) });
    expect(post[1]!['script']).toBeDefined();
    const page = lines({ index: 'pages', id: 'u1', body: { text: 'y' } });
    expect(page[0]).toEqual({ update: expect.objectContaining({ _index: 'p-pages', _id: 'u1' }) });
  });
});
