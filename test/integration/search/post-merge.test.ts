import { join } from 'node:path';
import type { DocOp } from '../../../src/core/envelope';
import { postStatesReader } from '../../../src/search/post-states';
import { applyTemplates, indexName, loadTemplates } from '../../../src/search/templates';
import { sendBulk } from '../../../src/sinks/bulk';
import { systemClock } from '../../../src/core/clock';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { elasticsearchSinkConfigSchema } from '../../../src/sinks/elasticsearch';
import { buildSink } from '../../../src/sinks/factory';
import { mergedUpdateLines } from '../../../src/sinks/post-merge-script';
import { engine, itWhen } from '../../helpers/engine';
import { useSearch, type TestSearch } from '../../helpers/services';

const MAPPINGS = join(__dirname, '..', '..', '..', 'mappings');
const SUBJECT = 'weibo:user:1669879400';

const post = (text: string, crawledAt: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  platform: 'weibo', id: '4806111732961615', subject: SUBJECT, text, created_at: '2026-04-01T08:00:00.000Z', crawled_at: crawledAt,
  counts: { reposts: 1, comments: 2, likes: 3 }, status: 'active', last_seen_at: crawledAt, ...extra,
});

/** Monitored posts merged by the search node (sinks/post-merge-script.ts), on the real engine. */
describe('post merge script (real search node)', () => {
  let t: TestSearch;
  let index: string;

  beforeAll(async () => {
    t = await useSearch('post-merge');
    await applyTemplates(t.client, loadTemplates(MAPPINGS), { prefix: t.prefix, settings: { number_of_replicas: 0 } });
    index = indexName(t.prefix, 'posts');
  });
  afterAll(async () => t.cleanup());

  const write = async (id: string, body: Record<string, unknown>, op: DocOp | 'post'): Promise<string | undefined> => {
    const items = await sendBulk(t.client, Buffer.from(mergedUpdateLines(index, id, body, op, 3)), 30_000, true);
    expect(items[0]!.error).toBeUndefined();
    return items[0]!.result;
  };
  const stored = async (id = 'weibo:4806111732961615'): Promise<Record<string, unknown> | undefined> => {
    const res = await t.client.get<Record<string, unknown>>({ index, id }, { ignore: [404] });
    return res.found ? res._source : undefined;
  };

  itWhen({ painless: engine().painless }, 'keeps versions and tombstone fields through re-reads; ops never create a post', async () => {
    const id = 'weibo:4806111732961615';
    expect(await write('weibo:1', { last_seen_at: '2026-04-02T00:00:00.000Z' }, 'seen')).toBe('noop');
    expect(await stored('weibo:1')).toBeUndefined();

    expect(await write(id, post('first text', '2026-04-01T09:00:00.000Z'), 'post')).toBe('created');
    // Counters only: no version.
    await write(id, post('first text', '2026-04-01T13:00:00.000Z', { counts: { reposts: 5, comments: 2, likes: 9 } }), 'post');
    expect((await stored())!['versions']).toBeUndefined();
    expect((await stored())!['counts']).toEqual({ reposts: 5, comments: 2, likes: 9 });
    // An edit: the first text and the new one, each with its time.
    await write(id, post('second text', '2026-04-01T17:00:00.000Z', { edited_at: '2026-04-01T16:30:00.000Z', edit_count: 1 }), 'post');
    expect((await stored())!['versions']).toEqual([
      { text: 'first text', at: '2026-04-01T08:00:00.000Z', seen_at: '2026-04-01T13:00:00.000Z' },
      { text: 'second text', at: '2026-04-01T16:30:00.000Z', seen_at: '2026-04-01T17:00:00.000Z' },
    ]);
    // A replay of an older read changes nothing.
    expect(await write(id, post('first text', '2026-04-01T09:00:00.000Z'), 'post')).toBe('noop');

    // Missed twice: the earliest miss is kept with the count; then tombstoned: the text stays.
    await write(id, { first_missing_at: '2026-04-02T04:00:00.000Z', not_found_count: 1 }, 'missing');
    await write(id, { first_missing_at: '2026-04-02T08:00:00.000Z', not_found_count: 2 }, 'missing');
    expect(await stored()).toMatchObject({ first_missing_at: '2026-04-02T04:00:00.000Z', not_found_count: 2, status: 'active' });
    await write(id, { status: 'deleted', last_seen_at: '2026-04-01T17:00:00.000Z', first_missing_at: '2026-04-02T04:00:00.000Z', status_checked_at: '2026-04-02T08:00:00.000Z', status_reason: 'message', lived_hours: 20 }, 'tombstone');
    expect(await stored()).toMatchObject({ status: 'deleted', text: 'second text', first_missing_at: '2026-04-02T04:00:00.000Z', lived_hours: 20 });
    expect((await stored())!['not_found_count']).toBeUndefined();
    // The same post read again (an older crawl replayed) keeps the tombstone; a missing op on a tombstone is nothing.
    expect(await write(id, post('second text', '2026-04-01T17:00:00.000Z'), 'post')).toBe('noop');
    expect(await write(id, { first_missing_at: '2026-04-03T00:00:00.000Z', not_found_count: 0 }, 'missing')).toBe('noop');
    expect((await stored())!['status']).toBe('deleted');

    // The reader sees what monitoring needs.
    await t.client.indices.refresh({ index });
    const read = postStatesReader(t.client, { index });
    expect(await read(SUBJECT, [{ low: '4806111732961600', high: '4806111732961699' }])).toEqual([{
      id: '4806111732961615', status: 'deleted', lastSeenAtMs: Date.parse('2026-04-01T17:00:00.000Z'), firstMissingAtMs: Date.parse('2026-04-02T04:00:00.000Z'),
      createdAtMs: Date.parse('2026-04-01T08:00:00.000Z'),
    }]);
    expect(await read(SUBJECT, [{ low: '4806111732961616', high: null }])).toEqual([]);

    // Shown again (restored): live again, the versions kept.
    await write(id, { last_seen_at: '2026-04-04T00:00:00.000Z' }, 'seen');
    const back = (await stored())!;
    expect(back).toMatchObject({ status: 'active', last_seen_at: '2026-04-04T00:00:00.000Z' });
    expect(back['first_missing_at']).toBeUndefined();
    expect((back['versions'] as unknown[]).length).toBe(2);
  });

  itWhen({ 'a node without painless': engine().painless.ok ? { ok: false, reason: 'this node has it' } : { ok: true } },
    'refuses a sink with versioned or merged indices in one line before the crawl, naming what the node lacks', async () => {
      const config = elasticsearchSinkConfigSchema.parse({ type: 'elasticsearch', merged_indices: ['posts'] });
      const err = await buildSink(config, {
        search: t.client, indexPrefix: t.prefix, mappingsDir: MAPPINGS, deadLetters: { deadLetter: async () => undefined },
        clock: systemClock, rng: seededRng(1), logger: silentLogger, metrics: createMetrics(), sleep: async () => undefined,
      }).catch((e: unknown) => e as Error);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toBe(`versioned_indices and merged_indices need features this search node (${engine().node}) lacks: painless scripts (module lang-painless): ${engine().painless.reason!}`);
    });
});
