import { join } from 'node:path';
import { lastValueFrom, Subject, toArray } from 'rxjs';
import { ManualClock } from '../../../src/core/clock';
import { JobTracker, type DocEnvelope } from '../../../src/core/envelope';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { seededRng } from '../../../src/core/rng';
import { applyTemplates, loadTemplates } from '../../../src/search/templates';
import { elasticsearchSink, elasticsearchSinkConfigSchema } from '../../../src/sinks/elasticsearch';
import { useSearch, type TestSearch } from '../../helpers/services';

const MAPPINGS = join(__dirname, '..', '..', '..', 'mappings');

/**
 * Flush requests that come while every bulk request slot is taken do not queue small batches
 * behind it: the open batch takes what comes meanwhile and goes, whole, when a slot frees.
 */
describe('elasticsearchSink request slots (real search node)', () => {
  let t: TestSearch;

  beforeAll(async () => {
    t = await useSearch('sink-room');
    await applyTemplates(t.client, loadTemplates(MAPPINGS), { prefix: t.prefix, settings: { number_of_replicas: 0 } });
  });
  afterAll(async () => t.cleanup());

  it('sends one bulk for what came while its one slot was taken, and indexes every document', async () => {
    const metrics = createMetrics();
    const flushRequests = new Subject<void>();
    const sink = elasticsearchSink(elasticsearchSinkConfigSchema.parse({ type: 'elasticsearch', concurrency: 1, flush_interval_ms: 60_000 }), {
      client: t.client, indexPrefix: t.prefix, clock: new ManualClock(0), rng: seededRng(1), logger: silentLogger,
      metrics, deadLetter: async () => undefined, sleep: async () => undefined, flushRequests,
    });
    const docs = new Subject<DocEnvelope>();
    const settled = lastValueFrom(docs.pipe(sink, toArray()));
    const tracker = new JobTracker({ subject: 'weibo:user:1', state: { firstSeenMs: 0, postsSeen: 0, visits: 0, failures: 0, status: 'active' }, claimedAtMs: 0, leaseToken: 't' });
    // Each document followed by a flush request, all before the first bulk can answer: the
    // first goes alone, the other 49 wait in one open batch for the slot.
    for (let i = 0; i < 50; i++) {
      tracker.add();
      docs.next({ doc: { index: 'posts', id: `weibo:${i}`, body: { platform: 'weibo', id: String(i), text: `post ${i}` } }, job: tracker });
      flushRequests.next();
    }
    // Let the first bulk answer (the open batch goes then), then end the stream.
    await new Promise((r) => setTimeout(r, 200));
    docs.complete();
    const out = await settled;
    expect(out.map((s) => s.how)).toEqual(Array(50).fill('indexed'));
    const requests = (await metrics.bulkRequests.get()).values.reduce((n, v) => n + v.value, 0);
    expect(requests).toBe(2);
    await t.client.indices.refresh({ index: `${t.prefix}posts` });
    expect((await t.client.count({ index: `${t.prefix}posts` })).count).toBe(50);
  });
});
