import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCodes, FreshetError } from '../../../../src/core/errors';
import { classifySinglePost } from '../../../../src/parsers/weibo/single-post';
import { createWorld, DEFAULT_WEIBO_OPTIONS, truthDeletions } from '../../../../src/simsite';
import { captchaPage } from '../../../../src/simsite/fault-responses';
import { softErrorBody } from '../../../../src/simsite/faults';
import { WeiboSite } from '../../../../src/simsite/weibo/routes';

const ok = (text: string, url = 'https://m.weibo.cn/statuses/show?id=1') => ({ url, status: 200, text });
const real = (name: string) => readFileSync(join(__dirname, '..', '..', '..', 'fixtures', 'weibo-real', name), 'utf8');

describe('classifySinglePost', () => {
  it('a served post is active (real statuses/show capture)', () => {
    expect(classifySinglePost(ok(real('2019-06-show-repost.json')))).toMatchObject({ kind: 'active' });
  });

  it('names the reason simsite gives for each kind of gone post, on show and on the detail page', () => {
    const world = createWorld({ seed: 3, users: 40, historyDays: 10, lifecycle: { deletedShare: 0.1, removedShare: 0.05, restrictedShare: 0.05, accountGoneShare: 0.2 } });
    const site = new WeiboSite(world, { ...DEFAULT_WEIBO_OPTIONS, responseCacheMs: 0 });
    const now = world.startMs + 5 * 86_400_000;
    const get = (path: string) => {
      const u = new URL(`http://sim${path}`);
      const r = site.handle({ method: 'GET', pathname: u.pathname, url: path, query: u.searchParams, headers: {}, host: 'sim', client: 't', nowMs: now, realMs: 0, body: '' })!;
      return { url: `http://sim${path}`, status: r.status, text: String(r.body) };
    };
    const rows = [...truthDeletions(world, now)];
    const kinds = new Set(rows.map((r) => r.status));
    expect([...kinds].sort()).toEqual(['account_gone', 'deleted', 'removed', 'restricted']);
    for (const r of rows) {
      expect([r.id, classifySinglePost(get(`/statuses/show?id=${r.id}`))]).toEqual([r.id, expect.objectContaining({ kind: 'gone', status: r.status })]);
      expect([r.id, classifySinglePost(get(`/detail/${r.id}`))]).toEqual([r.id, expect.objectContaining({ kind: 'gone', status: r.status })]);
    }
  });

  it('the deleted stub of a real capture is gone', () => {
    const feed = JSON.parse(real('2022-11-hotfeed-102803-excerpt.json')) as { data: { cards: { mblog: unknown }[] } };
    expect(classifySinglePost(ok(JSON.stringify({ ok: 1, data: feed.data.cards[1]!.mblog })))).toMatchObject({ kind: 'gone', status: 'deleted' });
  });

  it('ok:0 without a reason is not_found, never gone at once', () => {
    expect(classifySinglePost(ok('{"ok":0,"msg":"这里还没有内容","data":{"cards":[]}}'))).toMatchObject({ kind: 'not_found' });
  });

  it('errors, soft blocks and unknown answers are transient: never a tombstone', () => {
    const cases = [
      new FreshetError(ErrorCodes.fetchTimeout, 'retryable', 'timed out'),
      new FreshetError(ErrorCodes.fetchThrottled, 'throttled', 'HTTP 418'),
      new Error('socket hang up'),
      ok(real('2024-10-captcha-limit.json')),
      ok(JSON.stringify(softErrorBody('frequent', '/x'))),
      ok(JSON.stringify(softErrorBody('captcha', '/x'))),
      ok(String(captchaPage('/x').body)),
      ok('{"ok":1,"data":{"cards":[{"card_ty'), // truncated
      { url: 'x', status: 503, text: '' },
      { url: 'x', status: 432, text: '' },
      ok('<html><body>访问过于频繁，该账号存在异常，暂时无法查看</body></html>'),
      ok('{"url":"https://m.weibo.cn/u/1"}'),
    ];
    for (const c of cases) expect([c instanceof Error ? c.message : c.text.slice(0, 30), classifySinglePost(c).kind]).toEqual([expect.anything(), 'transient']);
  });
});
