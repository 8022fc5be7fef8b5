import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, of, toArray } from 'rxjs';
import { JobTracker, newSubjectState, type DocEnvelope } from '../../../src/core/envelope';
import { sentimentStage } from '../../../src/enrichers/sentiment';
import { defaultModelDir, loadSentimentModel, type SentimentResult } from '../../../src/enrichers/sentiment/model';
import { decideLabel, decideSentiment, readOpinionWords, type NeutralRule } from '../../../src/enrichers/sentiment/neutral';
import { OpinionWords, zhLexicon } from '../../../src/enrichers/sentiment/opinion-words';
import { FeatureExtractor } from '../../../src/enrichers/sentiment/features';
import { hashString, NS } from '../../../src/enrichers/sentiment/feature-hash';
import { stageContext } from '../../helpers/stage-context';

const words = new OpinionWords(new Map([['失望', -1], ['太开心', 1], ['开心', 1], ['心', 1], ['好', 1], ['限定', 0]]));
const rule: NeutralRule = { neutralBand: 0, minConfidence: 0, zhNoOpinionBelow: 0.9 };
const zh = (label: 'positive' | 'negative', confidence: number): SentimentResult => ({ lang: 'zh', label, confidence, score: label === 'positive' ? 2 * confidence - 1 : 1 - 2 * confidence });

describe('OpinionWords', () => {
  it('finds words of two characters or more in running text, and whole emoticon codes', () => {
    expect(words.hasOpinion('买的耳机坏了，太失望了')).toBe(true);
    expect(words.hasOpinion('今天[开心]')).toBe(true);
    expect(words.hasOpinion('晚安[心]')).toBe(true);
    expect(words.hasOpinion('晚安[太开心了]')).toBe(true);
    // One character in running text is too ambiguous to count (好 in 好像, 心 in 中心).
    expect(words.hasOpinion('好像市中心有活动')).toBe(false);
    expect(words.hasOpinion('周三下午两点开会[思考]')).toBe(false);
    expect(words.hasOpinion('')).toBe(false);
  });

  it('with a polarity, counts only the words that support that side', () => {
    expect(words.hasOpinion('买的耳机坏了，太失望了', -1)).toBe(true);
    expect(words.hasOpinion('买的耳机坏了，太失望了', 1)).toBe(false);
    expect(words.hasOpinion('今天[开心]', 1)).toBe(true);
    // A word the model does not back (polarity 0) is an opinion word but supports neither call.
    expect(words.hasOpinion('限定口味', 1)).toBe(false);
    expect(words.hasOpinion('限定口味', -1)).toBe(false);
    expect(words.hasOpinion('限定口味')).toBe(true);
  });

  it('ships with the models: announcements have no opinion word, complaints and praise do', () => {
    const shipped = readOpinionWords(defaultModelDir())!;
    expect(shipped.size).toBeGreaterThan(10_000);
    expect(shipped.hasOpinion('周三下午两点开会，地点在三楼会议室')).toBe(false);
    expect(shipped.hasOpinion('买的耳机用了两天就坏了，太失望了')).toBe(true);
    expect(shipped.hasOpinion('终于吃到了火锅，太幸福了')).toBe(true);
    expect(shipped.hasOpinion('转发[哈哈]')).toBe(true);
    expect(shipped.hasOpinion('买的耳机用了两天就坏了，太失望了', -1)).toBe(true);
    expect(shipped.hasOpinion('终于吃到了火锅，太幸福了', 1)).toBe(true);
    expect(shipped.hasOpinion('转发[哈哈]', 1)).toBe(true);
  });
});

describe('decideLabel (zh opinion gate)', () => {
  it('abstains on a zh polar call below the gate when the post has no opinion word', () => {
    expect(decideLabel(zh('positive', 0.8), '周三下午两点开会', rule, () => words)).toBe('neutral');
    expect(decideLabel(zh('positive', 0.95), '周三下午两点开会', rule, () => words)).toBe('positive');
    expect(decideLabel(zh('negative', 0.6), '太失望了', rule, () => words)).toBe('negative');
    // A positive call that only a negative word could explain is not supported.
    expect(decideLabel(zh('positive', 0.6), '太失望了', rule, () => words)).toBe('neutral');
    expect(decideLabel(zh('positive', 0.8), '周三下午两点开会', { ...rule, zhNoOpinionBelow: 0 }, () => words)).toBe('positive');
  });

  it('leaves English alone and reads the words only when it has to', () => {
    let reads = 0;
    const get = (): OpinionWords => { reads++; return words; };
    expect(decideLabel({ lang: 'en', label: 'positive', confidence: 0.5, score: 0.2 }, 'meeting at 2pm', rule, get)).toBe('positive');
    expect(decideLabel(zh('positive', 0.95), '周三下午两点开会', rule, get)).toBe('positive');
    expect(reads).toBe(0);
    expect(decideLabel(zh('positive', 0.7), '周三下午两点开会', rule, get)).toBe('neutral');
    expect(reads).toBe(1);
  });

  it('never takes a word of the post\'s #hashtag# as opinion, and reports the words a kept call rests on', () => {
    // 开心农场 is the topic's name: the call has nothing else to rest on.
    expect(decideLabel(zh('positive', 0.8), '#开心农场#周三下午两点开会', rule, () => words)).toBe('neutral');
    expect(decideSentiment(zh('positive', 0.8), '#开心农场#今天太开心了', rule, () => words)).toEqual({ label: 'positive', opinion: ['太开心', '开心'] });
    // Above the gate the words are not looked at, so none are reported.
    expect(decideSentiment(zh('positive', 0.95), '#开心农场#今天太开心了', rule, () => words)).toEqual({ label: 'positive' });
  });

  it('keeps the band and the confidence floor', () => {
    expect(decideLabel(zh('positive', 0.55), '太开心', { ...rule, neutralBand: 0.2 }, () => words)).toBe('neutral');
    expect(decideLabel(zh('negative', 0.7), '太失望了', { ...rule, minConfidence: 0.75 }, () => words)).toBe('neutral');
  });
});

describe('sentiment stage zh opinion gate', () => {
  const model = loadSentimentModel();
  const run = async (text: string, extra: Record<string, unknown> = {}): Promise<unknown> => {
    const job = new JobTracker({ subject: 'weibo:user:1', state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' });
    const config = sentimentStage.schema.parse({ type: 'sentiment', ...extra });
    const out = await lastValueFrom(of<DocEnvelope>({ job, doc: { index: 'posts', id: 'n', body: { text, lang: 'zh' } } }).pipe(sentimentStage.build(config, stageContext().ctx), toArray()));
    return out[0]!.doc.body['sentiment'];
  };

  it('labels a zh announcement neutral by default and polar without the gate', async () => {
    const text = '周三下午两点开会，地点在三楼会议室';
    const r = model.classify(text, 'zh');
    expect(r.label).not.toBe('neutral');
    expect(r.confidence).toBeLessThan(0.9);
    expect(await run(text)).toEqual({ score: r.score, label: 'neutral', confidence: r.confidence });
    expect(await run(text, { zh_no_opinion_below: 0 })).toEqual({ score: r.score, label: r.label, confidence: r.confidence });
  });

  it('keeps a zh complaint negative', async () => {
    expect(await run('买的耳机用了两天就坏了，太失望了')).toMatchObject({ label: 'negative' });
  });

  it('fails at build when the gate is on and the model folder has no opinion words', () => {
    const dir = mkdtempSync(join(tmpdir(), 'freshet-models-'));
    try {
      for (const f of ['sentiment-zh.json', 'sentiment-en.json']) symlinkSync(join(defaultModelDir(), f), join(dir, f));
      const build = (extra: Record<string, unknown>): unknown => sentimentStage.build(sentimentStage.schema.parse({ type: 'sentiment', model_dir: dir, ...extra }), stageContext().ctx);
      expect(() => build({})).toThrow(/zh_no_opinion_below needs .*zh-opinion-words\.txt/);
      expect(() => build({ zh_no_opinion_below: 0 })).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('zh features: lexicon counts and topic tags', () => {
  it('adds binned counts of the polar lexicon words as strong features', () => {
    const fx = new FeatureExtractor();
    const lexicon = zhLexicon(new Map([['失望', -1], ['开心', 1], ['太开心', 1]]));
    fx.extract('买的耳机坏了，太失望了', 'zh');
    const plain = fx.strong;
    const feats = Array.from(fx.extract('买的耳机坏了，太失望了', 'zh', { lexicon }));
    expect(fx.strong).toBe(plain + 3);
    const strong = feats.slice(0, fx.strong);
    expect(strong).toContain(hashString(NS.zhLexicon, 'p0'));
    expect(strong).toContain(hashString(NS.zhLexicon, 'n1'));
    expect(strong).toContain(hashString(NS.zhLexicon, 'd-1'));
    // Overlapping words count each: 太开心 and 开心.
    expect(Array.from(fx.extract('今天太开心', 'zh', { lexicon })).slice(0, fx.strong)).toContain(hashString(NS.zhLexicon, 'p2'));
  });

  it('leaves the text of #topic tags# out when the model says so', () => {
    const set = (fx: FeatureExtractor, t: string): number[] => Array.from(fx.extract(t, 'zh')).sort((a, b) => a - b);
    const noTags = new FeatureExtractor(undefined, { noTags: true });
    expect(set(noTags, '#城南地铁三号线#今天好开心')).toEqual(set(noTags, ' 今天好开心'));
    const withTags = new FeatureExtractor();
    expect(set(withTags, '#城南地铁三号线#今天好开心')).not.toEqual(set(withTags, ' 今天好开心'));
  });
});
