import { applyTombstone, mergeSeenPost } from '../../../src/monitor/post-merge';
import { unmappedFields } from '../../helpers/mapping-check';

const stored = {
  platform: 'weibo', id: '4806111288362365', text: 'first', created_at: '2022-08-24T14:01:27.000Z', crawled_at: '2022-08-24T14:05:00.000Z',
  counts: { reposts: 1, comments: 2, likes: 3 }, status: 'active', last_seen_at: '2022-08-24T14:05:00.000Z',
};

describe('mergeSeenPost', () => {
  it('appends a version when the text changed, with the edit time and when it was seen', () => {
    const merged = mergeSeenPost(stored, { ...stored, text: 'second', edited_at: '2022-08-24T14:01:44.000Z', edit_count: 1, crawled_at: '2022-08-25T00:00:00.000Z', last_seen_at: '2022-08-25T00:00:00.000Z' });
    expect(merged['text']).toBe('second');
    expect(merged['versions']).toEqual([
      { text: 'first', at: '2022-08-24T14:01:27.000Z', seen_at: '2022-08-24T14:05:00.000Z' },
      { text: 'second', at: '2022-08-24T14:01:44.000Z', seen_at: '2022-08-25T00:00:00.000Z' },
    ]);
    expect(unmappedFields('posts', merged)).toEqual([]);
    const third = mergeSeenPost(merged, { ...stored, text: 'third', edited_at: '2022-08-26T00:00:00.000Z', crawled_at: '2022-08-26T01:00:00.000Z' });
    expect((third['versions'] as unknown[]).length).toBe(3);
  });

  it('adds no version for a counter-only change', () => {
    const merged = mergeSeenPost(stored, { ...stored, counts: { reposts: 9, comments: 9, likes: 9 }, crawled_at: '2022-08-25T00:00:00.000Z' });
    expect(merged['versions']).toBeUndefined();
    expect(merged['counts']).toEqual({ reposts: 9, comments: 9, likes: 9 });
  });

  it('lifts a tombstone when the post shows again', () => {
    const gone = applyTombstone(stored, { id: stored.id, status: 'restricted', last_seen_at_ms: Date.parse(stored.last_seen_at), first_missing_at_ms: Date.parse('2022-08-26T00:00:00Z'), checked_at_ms: Date.parse('2022-08-26T00:00:05Z') }, 'message');
    expect(gone).toMatchObject({ status: 'restricted', text: 'first', first_missing_at: '2022-08-26T00:00:00.000Z', status_reason: 'message' });
    expect(unmappedFields('posts', gone)).toEqual([]);
    const back = mergeSeenPost(gone, { ...stored, crawled_at: '2022-08-27T00:00:00.000Z', last_seen_at: '2022-08-27T00:00:00.000Z' });
    expect(back['status']).toBe('active');
    expect(back['first_missing_at']).toBeUndefined();
  });
});
