import { subjectStatusFields } from '../../../src/runner/subject-status';

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
