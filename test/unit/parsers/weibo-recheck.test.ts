import type { Doc } from '../../../src/core/envelope';
import { ErrorCodes, FreshetError } from '../../../src/core/errors';
import type { VisitContext } from '../../../src/parsers/adapter';
import { weiboApiConfigSchema, WeiboApiAdapter } from '../../../src/parsers/weibo-api';
import { truthEdits, truthPostsOf, type World } from '../../../src/simsite';
import { drive, fakeWeibo, jobFor } from '../../helpers/weibo-fake';

const adapterWith = (extra: Record<string, unknown> = {}) =>
  new WeiboApiAdapter(weiboApiConfigSchema.parse({ type: 'weibo_api', base_url: 'http://sim.test', first_visit_page_limit: 1000, ...extra }));
const docsOf = (emitted: { kind: string; doc?: Doc }[], index: string): Doc[] => emitted.filter((e) => e.kind === 'doc' && e.doc!.index === index).map((e) => e.doc!);
const timeline = (reqs: string[]) => reqs.filter((r) => /containerid=230413/.test(r));

/** A user with many pages of history. */
function deepUser(world: World): number {
  const i = world.users.findIndex((_u, k) => [...truthPostsOf(world, k, world.historyStartMs, world.startMs)].length > 60);
  expect(i).toBeGreaterThanOrEqual(0);
  return i;
}

describe('re-reading known posts (deletion and edit monitoring)', () => {
  it('recheck_pages reads that many pages past the first known post, beyond the page limit, indexing no known post again', async () => {
    const fake = fakeWeibo('modern2022');
    const u = deepUser(fake.world);
    const uid = fake.world.users[u]!.uid;
    const adapter = adapterWith({ page_limit: 1, recheck_pages: 2 });
    const first = await drive(adapter, jobFor(uid), fake.ctx);
    fake.clock.advanceMs(60_000);
    fake.requests.length = 0;
    const second = await drive(adapter, { ...jobFor(uid), state: first.outcome.state }, fake.ctx);
    expect(timeline(fake.requests)).toHaveLength(3);
    expect(timeline(fake.requests).slice(1).every((r) => /since_id=/.test(r))).toBe(true);
    // Only edited known posts are indexed again (their text may have changed).
    expect(docsOf(second.emitted, 'posts').every((d) => (d.body['edit_count'] as number) > 0)).toBe(true);
    expect(docsOf(second.emitted, 'post-metrics').length).toBeGreaterThanOrEqual(25);
    expect(second.outcome.pageLimitHit).toBe(false);
  });

  it('recheck_hours stops re-reading once a page reaches older posts', async () => {
    const fake = fakeWeibo('modern2022');
    const u = deepUser(fake.world);
    const uid = fake.world.users[u]!.uid;
    const adapter = adapterWith({ recheck_pages: 50, recheck_hours: 0.001 });
    const first = await drive(adapter, jobFor(uid), fake.ctx);
    fake.requests.length = 0;
    await drive(adapter, { ...jobFor(uid), state: first.outcome.state }, fake.ctx);
    expect(timeline(fake.requests)).toHaveLength(1);
  });

  it('a failure while re-reading ends the visit well: no error, no gap', async () => {
    const fake = fakeWeibo('modern2022');
    const u = deepUser(fake.world);
    const uid = fake.world.users[u]!.uid;
    const adapter = adapterWith({ recheck_pages: 3 });
    const first = await drive(adapter, jobFor(uid), fake.ctx);
    fake.clock.advanceMs(60_000);
    let refused = 0;
    const ctx: VisitContext = { ...fake.ctx, fetchText: async (url, expect) => {
      if (/since_id=/.test(url) && /230413/.test(url)) {
        refused += 1;
        throw new FreshetError(ErrorCodes.fetchHttpStatus, 'retryable', 'HTTP 503', { status: 503 });
      }
      return fake.ctx.fetchText(url, expect);
    } };
    const second = await drive(adapter, { ...jobFor(uid), state: first.outcome.state }, ctx);
    expect(refused).toBe(1);
    expect(second.outcome.state.meta?.['gap_since']).toBeUndefined();
    expect(second.outcome.state.visits).toBe(2);
  });

  it('sweep_pages re-reads older history a little each visit and starts over past the end', async () => {
    const fake = fakeWeibo('modern2022');
    const u = deepUser(fake.world);
    const uid = fake.world.users[u]!.uid;
    const adapter = adapterWith({ sweep_pages: 2 });
    let state = (await drive(adapter, jobFor(uid), fake.ctx)).outcome.state;
    const total = [...truthPostsOf(fake.world, u, fake.world.historyStartMs, fake.clock.nowMs())].length;
    const seenIds = new Set<string>();
    let wrapped = false;
    for (let v = 0; v < Math.ceil(total / 20) + 2; v++) {
      fake.requests.length = 0;
      const out = await drive(adapter, { ...jobFor(uid), state }, fake.ctx);
      for (const d of docsOf(out.emitted, 'post-metrics')) seenIds.add(d.body['post_id'] as string);
      if (state.meta?.['sweep_since'] && !out.outcome.state.meta?.['sweep_since']) wrapped = true;
      state = out.outcome.state;
      expect(timeline(fake.requests).length).toBeLessThanOrEqual(3);
    }
    expect(wrapped).toBe(true);
    expect(seenIds.size).toBe(total);
  });

  it('indexes an edited known post again with its current text when re-reading', async () => {
    const fake = fakeWeibo('modern2022', 60, 5, { editedShare: 1, meanEditDelayMs: 3_600_000, deletedShare: 0, removedShare: 0, restrictedShare: 0 });
    const u = deepUser(fake.world);
    const uid = fake.world.users[u]!.uid;
    const adapter = adapterWith({ recheck_pages: 1 });
    const first = await drive(adapter, jobFor(uid), fake.ctx);
    fake.clock.advanceMs(12 * 3_600_000);
    const second = await drive(adapter, { ...jobFor(uid), state: first.outcome.state }, fake.ctx);
    const edits = new Map([...truthEdits(fake.world, fake.clock.nowMs(), uid)].map((e) => [e.id, e]));
    const again = docsOf(second.emitted, 'posts').filter((d) => edits.has(d.body['id'] as string) && (d.body['edit_count'] as number) > 0);
    expect(again.length).toBeGreaterThan(0);
    for (const d of again) {
      const e = edits.get(d.body['id'] as string)!;
      expect(d.body['text']).toBe(e.versions[e.versions.length - 1]!.text.trim());
    }
  });

  it('a known edited post whose long text fails to be read again stays due and is indexed with its new text on a later visit', async () => {
    const fake = fakeWeibo('modern2022', 60, 5, { editedShare: 1, meanEditDelayMs: 3_600_000, deletedShare: 0, removedShare: 0, restrictedShare: 0 });
    // Every long-text read of the second visit fails (a 5xx burst outlasting the retries).
    const failedLong = new Set<string>();
    const failing: VisitContext = { ...fake.ctx, fetchText: async (url, expect) => {
      const m = /statuses\/extend\?id=(\d+)/.exec(url);
      if (m) {
        failedLong.add(m[1]!);
        throw new FreshetError(ErrorCodes.fetchHttpStatus, 'retryable', 'HTTP 503', { status: 503 });
      }
      return fake.ctx.fetchText(url, expect);
    } };
    // The first user (in world order) with a known long post edited between two visits.
    const t0 = fake.clock.nowMs();
    let found: { uid: number; failedKnown: string[]; second: Awaited<ReturnType<typeof drive>> } | undefined;
    for (const user of fake.world.users) {
      fake.clock.setMs(t0);
      failedLong.clear();
      const first = await drive(adapterWith({ recheck_pages: 10 }), jobFor(user.uid), fake.ctx);
      fake.clock.advanceMs(12 * 3_600_000);
      const second = await drive(adapterWith({ recheck_pages: 10 }), { ...jobFor(user.uid), state: first.outcome.state }, failing);
      const known = new Set(docsOf(first.emitted, 'posts').map((d) => d.body['id'] as string));
      const failedKnown = [...failedLong].filter((id) => known.has(id)).sort();
      if (failedKnown.length > 0) {
        found = { uid: user.uid, failedKnown, second };
        break;
      }
    }
    expect(found).toBeDefined();
    const { uid, failedKnown, second } = found!;
    // Not taken for "unchanged": kept with its indexed text, and due.
    for (const id of failedKnown) expect(docsOf(second.emitted, 'posts').some((d) => d.body['id'] === id)).toBe(false);
    expect(second.outcome.state.meta?.['long_text_due']?.split(',').sort()).toEqual(failedKnown);
    // Later visits that re-read no known post from the timeline still read them (a few per visit), and index their current text.
    const docs: Doc[] = [];
    let state = second.outcome.state;
    for (let v = 0; v < 4 && state.meta?.['long_text_due']; v++) {
      fake.clock.advanceMs(3_600_000);
      const later = await drive(adapterWith({ recheck_pages: 0, sweep_pages: 0 }), { ...jobFor(uid), state }, fake.ctx);
      docs.push(...docsOf(later.emitted, 'posts'));
      state = later.outcome.state;
    }
    expect(state.meta?.['long_text_due']).toBeUndefined();
    const edits = new Map([...truthEdits(fake.world, fake.clock.nowMs(), uid)].map((e) => [e.id, e]));
    for (const id of failedKnown) {
      const d = docs.find((x) => x.body['id'] === id);
      expect(d).toBeDefined();
      const e = edits.get(id);
      expect(e).toBeDefined();
      expect(d!.body['text']).toBe(e!.versions[e!.versions.length - 1]!.text.trim());
    }
  });
});
