import { lastValueFrom, of, toArray } from 'rxjs';
import { JobTracker, newSubjectState, type DocEnvelope } from '../../../src/core/envelope';
import { createKeywordExtractor, keywordsStage } from '../../../src/enrichers/keywords';
import { hammingDistance, simhash64, simhashHex, SimhashIndex, simhashStage } from '../../../src/enrichers/simhash';
import { stageContext } from '../../helpers/stage-context';

const job = new JobTracker({ subject: 'weibo:user:1', state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' });
const env = (id: string, body: Record<string, unknown>): DocEnvelope => ({ job, doc: { index: 'posts', id, body } });

describe('keywords', () => {
  const kw = createKeywordExtractor({ top_k: 5, min_length: 2, allowed_pos: ['n', 'nr', 'ns', 'nt', 'nz', 'nrt', 'vn', 'eng'], stop_words: [] });

  it('finds the topic words of a Chinese post and drops markup and stop words', () => {
    const words = kw.extract('#北京天气# 北京今天的雾霾太严重了，雾霾天出门一定要戴口罩[泪] http://t.cn/abc @小明');
    expect(words).toContain('北京');
    expect(words).toContain('口罩');
    expect(words).not.toContain('泪');
    expect(words.some((w) => w.includes('t.cn') || w.includes('小明'))).toBe(false);
    expect(words.length).toBeLessThanOrEqual(5);
  });

  it('keeps English content words and drops function words', () => {
    const words = kw.extract('The new iPhone battery is terrible and the camera is great');
    expect(words).toEqual(expect.arrayContaining(['battery', 'camera']));
    expect(words).not.toContain('the');
  });

  it('stage writes keywords', async () => {
    const config = keywordsStage.schema.parse({ type: 'keywords', top_k: 3 });
    const out = await lastValueFrom(of(env('a', { text: '上海地铁今天早高峰故障，地铁站挤满了乘客' })).pipe(keywordsStage.build(config, stageContext().ctx), toArray()));
    const words = out[0]!.doc.body['keywords'] as string[];
    expect(words).toContain('地铁');
    expect(words.length).toBeLessThanOrEqual(3);
  });
});

describe('simhash', () => {
  const a = '今天去了新开的那家火锅店，味道非常好，服务也很热情，下次还要带朋友一起来吃';
  const b = '今天去了新开的那家火锅店，味道非常好，服务也很热情，下次还要带朋友一起来吃！！ http://t.cn/x1';
  const c = 'The stock market fell sharply today after the central bank raised interest rates again';

  it('is 16 hex digits and close for near-duplicates, far for unrelated texts', () => {
    expect(simhashHex(simhash64(a))).toMatch(/^[0-9a-f]{16}$/);
    expect(hammingDistance(simhash64(a), simhash64(b))).toBeLessThanOrEqual(3);
    expect(hammingDistance(simhash64(a), simhash64(c))).toBeGreaterThan(10);
  });

  it('index finds the earliest near-duplicate and forgets beyond its capacity', () => {
    const idx = new SimhashIndex(2);
    idx.add('1', simhash64(a));
    expect(idx.find(simhash64(b))).toBe('1');
    expect(idx.find(simhash64(c))).toBeUndefined();
    idx.add('2', simhash64(c));
    idx.add('3', simhash64('完全不同的一条微博内容，讲的是周末去爬山看日出的经历和感受'));
    expect(idx.size).toBe(2);
    expect(idx.find(simhash64(b))).toBeUndefined();
  });

  it('stage sets simhash on every post and dup_of on the near-duplicate only', async () => {
    const config = simhashStage.schema.parse({ type: 'simhash' });
    const out = await lastValueFrom(of(env('p1', { text: a }), env('p2', { text: b }), env('p3', { text: c }), env('p1', { text: a })).pipe(simhashStage.build(config, stageContext().ctx), toArray()));
    expect(out.map((e) => e.doc.body['dup_of'])).toEqual([undefined, 'p1', undefined, undefined]);
    expect(out.every((e) => typeof e.doc.body['simhash'] === 'string')).toBe(true);
  });
});
