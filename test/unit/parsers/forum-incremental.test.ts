import { pagesToFetch } from '../../../src/parsers/forum-incremental';

describe('incremental forum threads', () => {
  it('fetches from the page of the first new post to the new last page', () => {
    expect(pagesToFetch(undefined, { key: 't', replies: 24 }, 10)).toEqual([1, 2, 3]);
    expect(pagesToFetch({ postsSeen: 25 }, { key: 't', replies: 24 }, 10)).toEqual([]);
    // 25 seen (page 3 holds 21–25); now 32 posts: posts 26–32 are on pages 3 and 4.
    expect(pagesToFetch({ postsSeen: 25 }, { key: 't', replies: 31 }, 10)).toEqual([3, 4]);
    // The last known post closed page 2: page 2 is not fetched again, page 3 is.
    expect(pagesToFetch({ postsSeen: 20 }, { key: 't', replies: 20 }, 10)).toEqual([3]);
    expect(pagesToFetch({ postsSeen: 21 }, { key: 't', replies: 20 }, 10)).toEqual([]);
  });

  it('reads a later last-reply time as a change even when the count did not grow (a reply replaced a deleted one)', () => {
    expect(pagesToFetch({ postsSeen: 12, lastReplyMs: 1000 }, { key: 't', replies: 11, lastReplyMs: 2000 }, 10)).toEqual([2]);
    expect(pagesToFetch({ postsSeen: 12, lastReplyMs: 2000 }, { key: 't', replies: 10, lastReplyMs: 2000 }, 10)).toEqual([]);
    expect(() => pagesToFetch(undefined, { key: 't', replies: 1 }, 0)).toThrow(RangeError);
  });
});
