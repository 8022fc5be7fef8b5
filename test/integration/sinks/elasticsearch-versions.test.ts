import { join } from 'node:path';
import { firstValueFrom, from, toArray } from 'rxjs';
import { ManualClock } from '../../../src/core/clock';
import { JobTracker, type Doc } from '../../../src/core/envelope';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { contentSignature } from '../../../src/parsers/page-signature';
import { applyTemplates, loadTemplates } from '../../../src/search/templates';
import { elasticsearchSink, elasticsearchSinkConfigSchema } from '../../../src/sinks/elasticsearch';
import { engine, itWhen } from '../../helpers/engine';
import { useSearch, type TestSearch } from '../../helpers/services';

const MAPPINGS = join(__dirname, '..', '..', '..', 'mappings');

/** What the search node did with a versioned page, as the sink settles it (the schedule's change evidence, issue 20). */
describe('elasticsearchSink version outcomes (real search node)', () => {
  let t: TestSearch;

  beforeAll(async () => {
    t = await useSearch('sink-versions');
    await applyTemplates(t.client, loadTemplates(MAPPINGS), { prefix: t.prefix, settings: { number_of_replicas: 0 } });
  });
  afterAll(async () => t.cleanup());

  itWhen({ painless: engine().painless }, 'settles a page created, unchanged (same text signature) or changed, and says nothing for plain indices and marks', async () => {
    const sink = elasticsearchSink(elasticsearchSinkConfigSchema.parse({ type: 'elasticsearch', versioned_indices: ['pages'], flush_interval_ms: 10 }), {
      client: t.client, indexPrefix: t.prefix, clock: new ManualClock(0), rng: seededRng(1), logger: silentLogger,
      metrics: createMetrics(), deadLetter: async () => undefined, sleep: async () => undefined,
    });
    const page = (text: string, at: string): Doc => ({
      index: 'pages', id: 'web:a.example/1', body: { url: 'https://a.example/1', text, content_signature: contentSignature(text), crawled_at: at },
    });
    const settle = async (doc: Doc): Promise<string | undefined> => {
      const tracker = new JobTracker({ subject: 'web:page:https://a.example/1', state: { firstSeenMs: 0, postsSeen: 0, visits: 0, failures: 0, status: 'active' }, claimedAtMs: 0, leaseToken: 't' });
      const [s] = await firstValueFrom(from([{ doc, job: tracker }]).pipe(sink, toArray()));
      expect(s!.how).toBe('indexed');
      return s!.version;
    };
    expect(await settle(page('The harbour reopens on Monday.', '2026-11-01T00:00:00Z'))).toBe('created');
    expect(await settle(page('The harbour reopens on Monday.', '2026-11-02T00:00:00Z'))).toBe('unchanged');
    expect(await settle(page('The harbour reopens on Tuesday, not Monday.', '2026-11-03T00:00:00Z'))).toBe('changed');
    expect(await settle({ index: 'pages', id: 'web:a.example/1', body: { url: 'https://a.example/1', status: 'deleted', deleted_at: '2026-11-04T00:00:00Z' } })).toBeUndefined();
    expect(await settle({ index: 'posts', id: 'web:a.example/1:1', body: { text: 'x' } })).toBeUndefined();
  });
});
