import type { Client } from '@elastic/elasticsearch';
import { silentLogger } from '../../../src/core/logger';
import { createMetrics } from '../../../src/core/metrics';
import { SubjectStatusWriter, subjectStatusFields } from '../../../src/runner/subject-status';

describe('subjectStatusFields', () => {
  it('writes status, visit times as ISO dates, the next visit and a rounded rate', () => {
    const f = subjectStatusFields({ firstSeenMs: 0, lastVisitMs: 3_600_000, lastPostMs: 1_800_000, postsSeen: 3, visits: 1, failures: 0, status: 'active' }, 7_200_000, 0.123456789);
    expect(f).toEqual({
      status: 'active', first_seen: '1970-01-01T00:00:00.000Z', last_visit: '1970-01-01T01:00:00.000Z', last_post_at: '1970-01-01T00:30:00.000Z',
      next_visit: '1970-01-01T02:00:00.000Z', rate_per_hour: 0.1235,
    });
  });

  it('clears the next visit of a subject never visited again, and leaves unknown values null', () => {
    const f = subjectStatusFields({ firstSeenMs: 0, postsSeen: 0, visits: 1, failures: 0, status: 'gone' }, -1, undefined);
    expect(f).toMatchObject({ status: 'gone', next_visit: null, last_visit: null, last_post_at: null, rate_per_hour: null });
    expect(subjectStatusFields({ firstSeenMs: 0, postsSeen: 0, visits: 1, failures: 0, status: 'active' }, 5, Number.NaN)['rate_per_hour']).toBeNull();
  });
});

describe('SubjectStatusWriter', () => {
  /** A search client whose _bulk answers each update with the next status of `statuses` (by document id). */
  function client(statuses: Record<string, number[]>, bodies: string[]): Client {
    return {
      transport: {
        request: async (params: { bulkBody: Buffer }) => {
          const text = params.bulkBody.toString('utf8');
          bodies.push(text);
          const actions = text.trimEnd().split('\n').filter((_, i) => i % 2 === 0).map((a) => (JSON.parse(a) as { update: { _id: string } }).update._id);
          return { items: actions.map((id) => ({ update: { status: statuses[id]!.shift() ?? 200 } })) };
        },
      },
    } as unknown as Client;
  }

  it('sends partial updates through the bulk writer: keeps 429 and 5xx ones for the next flush, skips a profile never indexed, counts a rejection', async () => {
    const bodies: string[] = [];
    const metrics = createMetrics();
    const writer = new SubjectStatusWriter({
      client: client({ a: [429, 200], b: [404], c: [400], d: [503, 200] }, bodies), indexPrefix: 'pre-', logger: silentLogger, metrics, flushIntervalMs: 3_600_000,
    });
    const state = { firstSeenMs: 0, postsSeen: 0, visits: 1, failures: 0, status: 'active' as const };
    for (const id of ['a', 'b', 'c', 'd']) writer.scheduled({ index: 'users', id }, state, 7_200_000);
    await writer.flush();
    expect(bodies[0]).toContain('{"update":{"_index":"pre-users","_id":"a","retry_on_conflict":3}}\n{"doc":{"status":"active"');
    await writer.flush();
    expect(bodies).toHaveLength(2);
    expect(bodies[1]!.match(/"_id":"(\w)"/g)).toEqual(['"_id":"a"', '"_id":"d"']);
    await writer.close();
    expect(bodies).toHaveLength(2); // nothing left
    const rejected = (await metrics.errors.get()).values;
    expect(rejected).toEqual([expect.objectContaining({ labels: { stage: 'subject_status', code: 'E_SEARCH_ITEM_REJECTED' }, value: 1 })]);
  });
});
