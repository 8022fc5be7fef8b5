import { TimelineReadRecorder } from '../../../../src/parsers/weibo/read-recorder';

const T = 'http://sim/api/container/getIndex?type=uid&value=1&containerid=2304131';
const page = (ids: string[], since?: number, pinned: string[] = []) => JSON.stringify({
  ok: 1,
  data: { cardlistInfo: since ? { since_id: since } : {}, cards: ids.map((id) => ({ card_type: 9, mblog: { id, mblogtype: pinned.includes(id) ? 2 : 0 } })) },
});

describe('TimelineReadRecorder', () => {
  it('joins pages asked with the cursor the previous page gave into one read, pinned posts marked', () => {
    const r = new TimelineReadRecorder();
    r.page(`${T}&page=1`, page(['100', '909', '908'], 907, ['100']), 1);
    r.page(`${T}&since_id=907`, page(['907', '906'], 905), 2);
    expect(r.finish()).toEqual([{
      pages: [{ ids: ['100', '909', '908'], pinnedIds: ['100'], fetchedAtMs: 1 }, { ids: ['907', '906'], fetchedAtMs: 2 }],
      stop: 'page_limit', from: { top: true }, cursor: 'since_id', endedAtMs: 2,
    }]);
  });

  it('ends a read at the end of the list, and starts a new one at another cursor (a gap fill)', () => {
    const r = new TimelineReadRecorder();
    r.page(`${T}&page=1`, page(['909', '908']), 1);
    r.page(`${T}&since_id=500`, page(['500', '499'], 498), 2);
    r.page(`${T}&since_id=498`, '{"ok":0,"msg":"这里还没有内容","data":{"cards":[]}}', 3);
    const [a, b] = r.finish();
    expect(a).toMatchObject({ stop: 'end_of_list', from: { top: true } });
    expect(b).toMatchObject({ stop: 'end_of_list', from: { sinceId: '500' }, endedAtMs: 3 });
    expect(r.lastOutcome).toBe('end');
  });

  it('interrupts a read on a failure or a soft block and adds no page for it', () => {
    const r = new TimelineReadRecorder();
    r.page(`${T}&page=1`, page(['909', '908'], 907), 1);
    r.page(`${T}&since_id=907`, '{"ok":-100,"url":"https://m.weibo.cn/captcha?scene=limit"}', 2);
    expect(r.lastOutcome).toBe('interrupted');
    r.failed(`${T}&page=1`, 3);
    const reads = r.finish();
    expect(reads.map((x) => [x.stop, x.pages.length])).toEqual([['interrupted', 1], ['interrupted', 0]]);
  });

  it('records page-number reads as such, and ignores other requests', () => {
    const r = new TimelineReadRecorder();
    r.page('http://sim/statuses/extend?id=1', '{"ok":1}', 0);
    r.page(`${T}&page=1`, JSON.stringify({ ok: 1, data: { cardlistInfo: { page: 2 }, cards: [{ card_type: 9, mblog: { id: '9' } }] } }), 1);
    r.page(`${T}&page=2`, JSON.stringify({ ok: 1, data: { cardlistInfo: { page: null }, cards: [{ card_type: 9, mblog: { id: '8' } }] } }), 2);
    expect(r.finish()).toEqual([{ pages: [{ ids: ['9'], fetchedAtMs: 1 }, { ids: ['8'], fetchedAtMs: 2 }], stop: 'end_of_list', from: { top: true }, cursor: 'page', endedAtMs: 2 }]);
  });
});
