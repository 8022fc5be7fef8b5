import type { Doc } from '../../../../src/core/envelope';
import { ErrorCodes, FreshetError } from '../../../../src/core/errors';
import { silentLogger } from '../../../../src/core/logger';
import type { IndexedPost, TimelineRead } from '../../../../src/monitor/tombstones';
import type { Emitted, VisitContext } from '../../../../src/parsers/adapter';
import { confirmGoneProfile, reconcileReads, weiboMonitorConfigSchema } from '../../../../src/parsers/weibo/monitor-visit';

const T0 = Date.parse('2026-04-01T00:00:00.000Z');
const HOUR = 3_600_000;
const iso = (ms: number): string => new Date(ms).toISOString();
const id = (n: number): string => String(4806111732961000 + n);

/** One read from the top that showed `shown` (newest first) and reached the end of the list. */
const readOf = (shown: number[], atMs = T0 + 4 * HOUR): TimelineRead => ({
  pages: [{ ids: shown.map(id), fetchedAtMs: atMs }], stop: 'end_of_list', from: { top: true }, cursor: 'since_id', endedAtMs: atMs,
});

const active = (n: number, extra: Partial<IndexedPost> = {}): IndexedPost => ({ id: id(n), status: 'active', lastSeenAtMs: T0, createdAtMs: T0 - HOUR, ...extra });

function ctxWith(indexed: IndexedPost[] | Error, answers: Record<string, string | Error>, requested: string[] = []): VisitContext {
  return {
    nowMs: () => T0 + 4 * HOUR + 1000,
    logger: silentLogger,
    fetchText: async (url) => {
      const postId = new URL(url).searchParams.get('id')!;
      requested.push(postId);
      const a = answers[postId] ?? '{"ok":1,"data":{"id":"x","user":{"id":1},"text":"hi"}}';
      if (a instanceof Error) throw a;
      return { url, status: 200, text: a, fetchedAtMs: T0 + 4 * HOUR + 1000 };
    },
    indexedPosts: async () => {
      if (indexed instanceof Error) throw indexed;
      return indexed;
    },
  };
}

async function run(reads: TimelineRead[], ctx: VisitContext, checks = 10, stubs: string[] = []): Promise<Doc[]> {
  const out: Emitted[] = [];
  const config = weiboMonitorConfigSchema.parse({ checks_per_visit: checks });
  for await (const e of reconcileReads(reads, { ctx, config, base: 'http://sim.test', subject: 'weibo:user:1', stubIds: new Set(stubs) }, { checks: 0, requests: 0 })) out.push(e);
  return out.map((e) => (e as { doc: Doc }).doc);
}

const DELETED = '{"ok":0,"msg":"抱歉，此微博已被作者删除。查看帮助：https://kefu.weibo.com"}';
const CAPTCHA_PAGE = '<!DOCTYPE html><html><head><title>安全验证</title></head><body>请输入验证码</body></html>';

describe('reconcileReads: deletion monitoring after a visit', () => {
  it('tombstones a missed post only on an answer naming a reason, bracketing the time between sightings', async () => {
    const docs = await run([readOf([9, 8, 6])], ctxWith([active(9), active(8), active(7), active(6)], { [id(7)]: DELETED }));
    const tomb = docs.find((d) => d.op === 'tombstone')!;
    expect(tomb).toMatchObject({ index: 'posts', id: `weibo:${id(7)}` });
    expect(tomb.body).toMatchObject({ status: 'deleted', last_seen_at: iso(T0), first_missing_at: iso(T0 + 4 * HOUR), status_reason: 'message', lived_hours: 5 });
    // The posts shown move their last sighting on.
    expect(docs.filter((d) => d.op === 'seen').map((d) => d.id).sort()).toEqual([id(6), id(8), id(9)].map((x) => `weibo:${x}`));
  });

  it('never tombstones on a soft block, an error or a first unexplained not-found; stops checking when throttled', async () => {
    const requested: string[] = [];
    const indexed = [active(9), active(5), active(4), active(3), active(2, { notFoundCount: 1 })];
    const docs = await run([readOf([9, 1])], ctxWith(indexed, {
      [id(2)]: '{"ok":0,"msg":"这里还没有内容"}', // second not-found: kept (3 needed)
      [id(3)]: new FreshetError(ErrorCodes.fetchHttpStatus, 'retryable', 'HTTP 503', { status: 503 }),
      [id(4)]: CAPTCHA_PAGE, // a soft block: no more checks this visit
    }, requested));
    expect(docs.filter((d) => d.op === 'tombstone')).toEqual([]);
    expect(requested).toEqual([id(2), id(3), id(4)]);
    const missing = new Map(docs.filter((d) => d.op === 'missing').map((d) => [d.id, d.body]));
    expect(missing.get(`weibo:${id(2)}`)).toMatchObject({ not_found_count: 2 });
    expect(missing.get(`weibo:${id(3)}`)).toMatchObject({ not_found_count: 0 });
    // Unchecked after the soft block: the miss is kept for the next visit.
    expect(missing.get(`weibo:${id(5)}`)).toMatchObject({ first_missing_at: iso(T0 + 4 * HOUR), not_found_count: 0 });
  });

  it('spends at most the check budget, stubs first, and keeps the rest as misses', async () => {
    const requested: string[] = [];
    const docs = await run([readOf([9, 1])], ctxWith([active(9), active(6), active(5), active(4)], {}, requested), 2, [id(4)]);
    expect(requested).toEqual([id(4), id(5)]);
    // Checked and there: back to seen; unchecked: kept missing.
    expect(docs.filter((d) => d.op === 'seen').map((d) => d.id)).toEqual(expect.arrayContaining([`weibo:${id(4)}`, `weibo:${id(5)}`]));
    expect(docs.filter((d) => d.op === 'missing').map((d) => d.id)).toEqual([`weibo:${id(6)}`]);
  });

  it('decides nothing when the stored states cannot be read, and nothing outside what a read covered', async () => {
    expect(await run([readOf([9, 8])], ctxWith(new Error('search node down'), {}))).toEqual([]);
    // A read cut short (page limit) covers only down to its last post: older posts are not missing.
    const cut: TimelineRead = { ...readOf([9, 8]), stop: 'page_limit' };
    const docs = await run([cut], ctxWith([active(9), active(8), active(3)], { [id(3)]: DELETED }));
    expect(docs.filter((d) => d.op !== 'seen')).toEqual([]);
  });
});

describe('confirmGoneProfile', () => {
  const run2 = async (ctx: VisitContext, postsSeen = 5) => {
    const out: Doc[] = [];
    const config = weiboMonitorConfigSchema.parse({});
    const gen = confirmGoneProfile({ ctx, config, base: 'http://sim.test', subject: 'weibo:user:1' }, T0 + 4 * HOUR, 0, postsSeen, { checks: 0, requests: 0 });
    for (;;) {
      const s = await gen.next();
      if (s.done) return { result: s.value, docs: out };
      out.push((s.value as { doc: Doc }).doc);
    }
  };

  it('tombstones every active post account_gone once the newest post says so', async () => {
    const { result, docs } = await run2(ctxWith([active(9), active(8), { id: id(7), status: 'deleted' }], { [id(9)]: '{"ok":0,"msg":"该账号因被投诉违反法律法规和《微博社区公约》的相关规定，现已无法查看。"}' }));
    expect(result).toEqual({ kind: 'gone' });
    expect(docs.map((d) => [d.id, d.op, d.body['status']])).toEqual([[`weibo:${id(9)}`, 'tombstone', 'account_gone'], [`weibo:${id(8)}`, 'tombstone', 'account_gone']]);
  });

  it('stays unconfirmed when the post is there, the check fails, or the posts are not searchable yet', async () => {
    expect((await run2(ctxWith([active(9)], {}))).result).toMatchObject({ kind: 'unconfirmed' });
    expect((await run2(ctxWith([active(9)], { [id(9)]: CAPTCHA_PAGE }))).result).toMatchObject({ kind: 'unconfirmed' });
    expect((await run2(ctxWith([], {}))).result).toMatchObject({ kind: 'unconfirmed', reason: 'posts_not_searchable' });
    expect((await run2(ctxWith([], {}), 0)).result).toEqual({ kind: 'gone' });
  });
});
