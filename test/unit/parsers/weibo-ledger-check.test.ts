import type { Doc } from '../../../src/core/envelope';
import type { VisitContext } from '../../../src/parsers/adapter';
import { weiboApiConfigSchema, WeiboApiAdapter } from '../../../src/parsers/weibo-api';
import { truthPostsOf } from '../../../src/simsite';
import { drive, fakeWeibo, jobFor } from '../../helpers/weibo-fake';

const postIds = (emitted: { kind: string; doc?: Doc }[]): Set<string> =>
  new Set(emitted.filter((e) => e.kind === 'doc' && e.doc!.index === 'posts').map((e) => e.doc!.body['id'] as string));

describe('the completeness ledger check of a monitored visit', () => {
  it('a re-read indexes every post it lists, also those the same visit\'s recheck and sweep showed as known', async () => {
    const fake = fakeWeibo('modern2022');
    const u = fake.world.users.findIndex((_u, k) => [...truthPostsOf(fake.world, k, fake.world.historyStartMs, fake.world.startMs)].length > 40);
    expect(u).toBeGreaterThanOrEqual(0);
    const uid = fake.world.users[u]!.uid;
    const adapter = new WeiboApiAdapter(weiboApiConfigSchema.parse({
      type: 'weibo_api', base_url: 'http://sim.test', first_visit_page_limit: 1000, recheck_pages: 1, recheck_hours: 0,
      sweep_pages: 1000, sweep_horizon_days: 1000, profile_every_visits: 2, monitor: {},
    }));
    const first = await drive(adapter, jobFor(uid), fake.ctx);
    const listed = postIds(first.emitted);
    expect(listed.size).toBeGreaterThan(40);
    fake.clock.advanceMs(60_000);
    // The index lost a post (or never held it): one fewer than the profile declares.
    let asked = 0;
    const ctx: VisitContext = {
      ...fake.ctx,
      ledgerCounts: async () => {
        asked += 1;
        return { declared: listed.size, declaredAtMs: fake.clock.nowMs(), held: listed.size - 1 };
      },
    };
    const second = await drive(adapter, { ...jobFor(uid), state: first.outcome.state }, ctx);
    expect(asked).toBe(1);
    // Every post of the timeline indexed again, whichever the index lacks.
    const again = postIds(second.emitted);
    expect([...listed].filter((id) => !again.has(id))).toEqual([]);
    expect(second.outcome.state.meta?.['short']).toBeUndefined();
  });

  it('stores the profile\'s post count only with a read of the timeline\'s head at the same time', async () => {
    const fake = fakeWeibo('modern2022');
    const uid = fake.world.users[0]!.uid;
    const adapter = new WeiboApiAdapter(weiboApiConfigSchema.parse({ type: 'weibo_api', base_url: 'http://sim.test', monitor: {} }));
    // The profile answers; the timeline's first page is a soft block: the visit fails.
    fake.override(/containerid=230413/, JSON.stringify({ ok: 0, msg: '操作过于频繁，请稍后再试' }));
    const gen = adapter.visit(jobFor(uid), fake.ctx);
    const emitted: { kind: string; doc?: Doc }[] = [];
    await expect((async () => {
      for (let step = await gen.next(); !step.done; step = await gen.next()) emitted.push(step.value);
    })()).rejects.toThrow(/频繁|frequent/i);
    expect(fake.requests.some((r) => /containerid=100505/.test(r))).toBe(true);
    expect(emitted.filter((e) => e.kind === 'doc' && e.doc!.index === 'users')).toEqual([]);
    // The visit again, the timeline answering: the count is stored with the posts.
    const again = await drive(adapter, jobFor(uid), fake.ctx);
    expect(again.emitted.filter((e) => e.kind === 'doc' && e.doc!.index === 'users')).toHaveLength(1);
    expect(postIds(again.emitted).size).toBeGreaterThan(0);
  });
});
