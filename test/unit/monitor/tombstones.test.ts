import { coveredSpans, findMissing, resolve, type IndexedPost, type TimelineRead } from '../../../src/monitor/tombstones';

/** Ids: bigger = newer. Pages of three, newest first. */
const T0 = 1_000_000;
const page = (ids: string[], at: number, pinnedIds?: string[]) => ({ ids, fetchedAtMs: at, ...(pinnedIds ? { pinnedIds } : {}) });
const active = (...ids: string[]): IndexedPost[] => ids.map((id) => ({ id, status: 'active', lastSeenAtMs: T0 - 5000 }));
const read = (r: Partial<TimelineRead> & Pick<TimelineRead, 'pages' | 'stop'>): TimelineRead => ({ from: { top: true }, cursor: 'since_id', endedAtMs: T0 + 999, ...r });
const ids = (xs: { id: string }[]) => xs.map((x) => x.id);

describe('findMissing: what a read certainly covered', () => {
  it('finds a post missing inside the pages read, with the time of the page that should have shown it', () => {
    const r = read({ pages: [page(['909', '908', '907'], T0), page(['905', '904', '903'], T0 + 10)], stop: 'known_post' });
    const m = findMissing(r, active('909', '906', '904', '903'), { maxChecks: 10 });
    expect(m.toConfirm).toEqual([{ id: '906', lastSeenAtMs: T0 - 5000, firstMissingAtMs: T0 + 10 }]);
    expect(m.seen.map((s) => s.id)).toEqual(['909', '904', '903']);
  });

  it('covers nothing below the last page read when the page limit stops the visit', () => {
    const r = read({ pages: [page(['909', '908', '907'], T0)], stop: 'page_limit' });
    expect(findMissing(r, active('906', '800', '1'), { maxChecks: 10 }).toConfirm).toEqual([]);
  });

  it('covers down to the bottom when the list ended', () => {
    const r = read({ pages: [page(['909', '908'], T0)], stop: 'end_of_list' });
    expect(ids(findMissing(r, active('906', '1'), { maxChecks: 10 }).toConfirm).sort()).toEqual(['1', '906']);
  });

  it('does not let an old pinned post widen the covered range', () => {
    const r = read({ pages: [page(['100', '909', '908'], T0, ['100'])], stop: 'page_limit' });
    expect(coveredSpans(r)).toEqual([{ low: '908', high: null }]);
    expect(findMissing(r, active('100', '500', '907'), { maxChecks: 10 }).toConfirm).toEqual([]);
  });

  it('a gap-filling read from a cursor covers only below its cursor', () => {
    const r = read({ from: { sinceId: '700' }, pages: [page(['700', '698'], T0)], stop: 'page_limit' });
    expect(ids(findMissing(r, active('800', '699', '697'), { maxChecks: 10 }).toConfirm)).toEqual(['699']);
  });

  it('with page numbers, only the inside of each page counts (posts shift across page boundaries)', () => {
    const r = read({ cursor: 'page', pages: [page(['909', '907', '906'], T0), page(['903', '901', '900'], T0 + 10)], stop: 'page_limit' });
    // 908 and 902 lie inside a page: missing. 905 and 904 lie between the pages: unknown.
    expect(ids(findMissing(r, active('908', '905', '904', '902'), { maxChecks: 10 }).toConfirm)).toEqual(['908', '902']);
  });

  it('spends at most maxChecks, oldest miss first, and keeps the earliest first-missing time across visits', () => {
    const r = read({ pages: [page(['909', '905'], T0)], stop: 'known_post' });
    const indexed: IndexedPost[] = [
      { id: '908', status: 'active' }, { id: '907', status: 'active', firstMissingAtMs: T0 - 60_000 }, { id: '906', status: 'active' },
    ];
    const m = findMissing(r, indexed, { maxChecks: 1 });
    expect(m.toConfirm).toEqual([{ id: '907', lastSeenAtMs: undefined, firstMissingAtMs: T0 - 60_000 }]);
    expect(ids(m.deferred)).toEqual(['906', '908']);
  });

  it('reports tombstoned posts that show again, and never re-checks them while gone', () => {
    const r = read({ pages: [page(['909', '905'], T0)], stop: 'known_post' });
    const m = findMissing(r, [{ id: '909', status: 'deleted' }, { id: '907', status: 'restricted' }], { maxChecks: 10 });
    expect(m.reappeared).toEqual(['909']);
    expect(m.toConfirm).toEqual([]);
  });
});

describe('0 false tombstones', () => {
  const indexed = active('909', '908', '907', '906', '905');

  it('a visit that failed before any page (transient error, soft block, quota pause) covers nothing', () => {
    for (const stop of ['interrupted', 'page_limit', 'known_post'] as const) {
      expect(findMissing(read({ pages: [], stop }), indexed, { maxChecks: 10 }).toConfirm).toEqual([]);
    }
  });

  it('a truncated or failed page is not a page read: nothing below the last good page is missing', () => {
    // Page 2 was cut short (not listed); the visit was interrupted there.
    const r = read({ pages: [page(['909', '908'], T0)], stop: 'interrupted' });
    expect(findMissing(r, indexed, { maxChecks: 10 }).toConfirm).toEqual([]);
  });

  it('an empty first page that is no end of list (a soft block read as data would be one) covers nothing', () => {
    expect(findMissing(read({ pages: [page([], T0)], stop: 'interrupted' }), indexed, { maxChecks: 10 }).toConfirm).toEqual([]);
    expect(findMissing(read({ pages: [page([], T0)], stop: 'page_limit' }), indexed, { maxChecks: 10 }).toConfirm).toEqual([]);
  });

  it('a missing post is only a candidate: a transient or soft-blocked check keeps it missing, never tombstoned', () => {
    const c = { id: '906', lastSeenAtMs: T0 - 5000, firstMissingAtMs: T0 };
    expect(resolve(c, { kind: 'transient' }, T0 + 1)).toEqual({ kind: 'keep_missing', firstMissingAtMs: T0, notFoundCount: 0 });
  });

  it('a post that the single-post endpoint still serves is cleared, not tombstoned', () => {
    expect(resolve({ id: '906', lastSeenAtMs: 1, firstMissingAtMs: T0 }, { kind: 'active' }, T0 + 1)).toEqual({ kind: 'clear' });
  });

  it('an unexplained not-found becomes a deletion only when it repeats', () => {
    const c = { id: '906', lastSeenAtMs: T0 - 5000, firstMissingAtMs: T0 };
    expect(resolve(c, { kind: 'not_found' }, T0 + 1)).toMatchObject({ kind: 'keep_missing', notFoundCount: 1 });
    expect(resolve(c, { kind: 'not_found' }, T0 + 2, { notFoundCount: 1 })).toMatchObject({ kind: 'keep_missing', notFoundCount: 2 });
    expect(resolve(c, { kind: 'not_found' }, T0 + 3, { notFoundCount: 2 })).toMatchObject({ kind: 'tombstone', update: { status: 'deleted' } });
  });
});

describe('resolve: a named reason makes the tombstone, bracketed by last seen and first missing', () => {
  it.each(['deleted', 'removed', 'restricted', 'account_gone'] as const)('%s', (status) => {
    const c = { id: '906', lastSeenAtMs: T0 - 5000, firstMissingAtMs: T0 };
    expect(resolve(c, { kind: 'gone', status }, T0 + 7)).toEqual({
      kind: 'tombstone', update: { id: '906', status, last_seen_at_ms: T0 - 5000, first_missing_at_ms: T0, checked_at_ms: T0 + 7 },
    });
  });
});
