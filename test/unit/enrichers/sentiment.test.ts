import { Readable } from 'node:stream';
import { lastValueFrom, of, toArray } from 'rxjs';
import { JobTracker, newSubjectState, type DocEnvelope } from '../../../src/core/envelope';
import { sentimentStage } from '../../../src/enrichers/sentiment';
import { wordHash } from '../../../src/enrichers/sentiment/feature-hash';
import { FeatureExtractor } from '../../../src/enrichers/sentiment/features';
import { scanValence, type Valence } from '../../../src/enrichers/sentiment/english';
import { createSentimentModel, loadSentimentModel, logits, readModelFile, defaultModelDir } from '../../../src/enrichers/sentiment/model';
import { decodeModel, encodeModel, type LinearModel } from '../../../src/enrichers/sentiment/model-file';
import { classifyLines } from '../../../src/cli/commands/sentiment';
import { scoreSentiment } from '../../../src/eval/sentiment-metrics';
import { stageContext } from '../../helpers/stage-context';

const model = loadSentimentModel();

describe('feature de-duplication', () => {
  it('keeps each feature once, in ascending order, also across buffer growth and reuse', () => {
    const fe = new FeatureExtractor();
    const rest = (text: string): number[] => Array.from(fe.extract(text, 'zh').subarray(fe.strong));
    expect(rest('哈哈哈哈哈哈哈哈')).toEqual(rest('哈哈哈'));
    let long = '';
    for (let i = 0; i < 3000; i++) long += String.fromCharCode(0x4e00 + ((i * 7919) % 2000));
    const first = rest(long);
    for (let i = 1; i < first.length; i++) expect(first[i - 1]! < first[i]!).toBe(true);
    expect(first.length).toBeGreaterThan(4096); // past the first sizes of the buffers
    const short = rest('今天天气真好');
    expect(new Set(short).size).toBe(short.length);
    expect(rest(long)).toEqual(first);
  });
});

describe('sentiment model', () => {
  it.each([
    ['今天太开心了，和朋友们一起吃饭[哈哈][哈哈]', 'positive'],
    ['气死我了，排了三个小时的队还没买到票[怒][泪]', 'negative'],
    ['I love this so much, best day ever!', 'positive'],
    ['This is the worst service I have ever had. Terrible.', 'negative'],
  ])('%s → %s', (text, label) => {
    const r = model.classify(text);
    expect(r.label).toBe(label);
    expect(r.score).toBeGreaterThanOrEqual(-1);
    expect(r.score).toBeLessThanOrEqual(1);
    expect(Math.sign(r.score)).toBe(label === 'positive' ? 1 : -1);
  });

  it('detects the language when none is given and honours a given one', () => {
    expect(model.classify('好开心').lang).toBe('zh');
    expect(model.classify('so happy').lang).toBe('en');
    expect(model.classify('so happy', 'zh').lang).toBe('zh');
  });

  it('counts a repeated n-gram once (presence features)', () => {
    const fx = new FeatureExtractor();
    const once = fx.extract('哈', 'zh').length;
    expect(fx.extract('哈哈哈哈哈哈', 'zh').length).toBe(once + 2); // 哈, 哈哈, 哈哈哈 each once
  });

  it('treats emoticon codes as features that stripping removes', () => {
    const fx = new FeatureExtractor();
    const withCodes = fx.extract('下雨了[泪]', 'zh').length;
    const strong = fx.strong;
    const stripped = fx.extract('下雨了[泪]', 'zh', { stripEmoticons: true }).length;
    expect(strong).toBe(2); // bias + one emoticon
    expect(fx.strong).toBe(1);
    expect(withCodes).toBeGreaterThan(stripped);
  });
});

describe('model file codec', () => {
  it('round-trips sparse weights within the int16 quantisation step', () => {
    const weights = new Float32Array((1 << 10) * 2);
    weights[2 * 7] = 0.5;
    weights[2 * 7 + 1] = -0.25;
    weights[2 * 1000 + 1] = 1;
    const m: LinearModel = { lang: 'zh', classes: ['negative', 'positive'], bucketsLog2: 10, weights, decisionBias: [0, 0.1], neutralBand: 0, meta: {} };
    const back = decodeModel(JSON.parse(JSON.stringify(encodeModel(m))));
    // Read back as the file's int16 steps (half the memory of floats) times the step.
    expect(back.weights).toBeInstanceOf(Int16Array);
    const w = (i: number): number => back.weights[i]! * (back.weightScale ?? 1);
    expect(w(14)).toBeCloseTo(0.5, 4);
    expect(w(15)).toBeCloseTo(-0.25, 4);
    expect(w(2001)).toBeCloseTo(1, 4);
    expect(Array.from(back.weights).filter((x) => x !== 0)).toHaveLength(3);
    expect(back.decisionBias).toEqual([0, 0.1]);
    // Encoding the decoded model again gives the same file.
    expect(encodeModel(back).data).toBe(encodeModel(m).data);
    // The logits of the int16 model are the float model's within the quantisation step.
    const z = new Float64Array(2);
    const zf = new Float64Array(2);
    const feats = Int32Array.from([7 << 1, 1000 << 1]);
    logits(back, feats, 2, z, Float32Array.from([1, 1]));
    logits(m, feats, 2, zf, Float32Array.from([1, 1]));
    expect(z[0]).toBeCloseTo(zf[0]!, 4);
    expect(z[1]).toBeCloseTo(zf[1]!, 4);
  });

  it('reads a language\'s model on the first text of that language only', () => {
    const zh = readModelFile(`${defaultModelDir()}/sentiment-zh.json`);
    const en = readModelFile(`${defaultModelDir()}/sentiment-en.json`);
    const read: string[] = [];
    const segmented: string[] = [];
    const m = createSentimentModel(
      { zh: () => { read.push('zh'); return zh; }, en: () => { read.push('en'); return en; } },
      undefined, () => { segmented.push('zh'); return (t) => [t]; },
    );
    expect(read).toEqual([]);
    expect(m.classify('what a great day', 'en').label).toBe('positive');
    expect(m.classify('awful, just awful', 'en').label).toBe('negative');
    expect(read).toEqual(['en']);
    expect(segmented).toEqual([]);
    m.classify('太棒了', 'zh');
    m.classify('好烦', 'zh');
    expect(read).toEqual(['en', 'zh']);
    expect(segmented).toEqual(['zh']);
  });

  it('loads the committed models', () => {
    const zh = readModelFile(`${defaultModelDir()}/sentiment-zh.json`);
    expect(zh.classes).toEqual(['negative', 'positive']);
    // Character n-grams only: jieba's dictionary would add ~45 MiB wherever the stage runs, for 0.4 points of cross-validated weibo2018 accuracy.
    expect(zh.segmenter).toBeUndefined();
    // Posts without emoticon codes go through the text-only model (its blend is the calibration); posts with codes through the main model.
    expect(zh.textModel?.classes).toEqual(['negative', 'positive']);
    expect(zh.calibration).toBeUndefined();
    expect(zh.fusion?.groups).toHaveLength(2);
    expect(zh.fusion!.groups[0]!.text).toBeGreaterThan(0);
    expect(zh.fusion!.groups[1]!.text).toBe(0);
    expect(readModelFile(`${defaultModelDir()}/sentiment-en.json`).classes).toEqual(['negative', 'neutral', 'positive']);
  });
});

describe('sentiment stage', () => {
  it('writes sentiment {score, label} and keeps an adapter-set one', async () => {
    const job = new JobTracker({ subject: 'weibo:user:1', state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' });
    const envs: DocEnvelope[] = [
      { job, doc: { index: 'posts', id: 'a', body: { text: '太棒了，超级喜欢[爱你]', lang: 'zh' } } },
      { job, doc: { index: 'posts', id: 'b', body: { text: 'awful', sentiment: { score: 0, label: 'neutral' } } } },
    ];
    const config = sentimentStage.schema.parse({ type: 'sentiment' });
    const out = await lastValueFrom(of(...envs).pipe(sentimentStage.build(config, stageContext().ctx), toArray()));
    expect(out[0]!.doc.body['sentiment']).toMatchObject({ label: 'positive' });
    expect(out[1]!.doc.body['sentiment']).toEqual({ score: 0, label: 'neutral' });
  });
});

describe('sentiment stage label-shift window', () => {
  it('adapts en confidences to a stream that runs negative with en_prior_window, and not by default', async () => {
    const job = new JobTracker({ subject: 'x:user:1', state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' });
    const gloomy = ['awful, just awful', 'I hate this so much', 'worst day ever, everything is broken', 'so angry right now'];
    const envs = (): DocEnvelope[] => [
      ...Array.from({ length: 1500 }, (_, i): DocEnvelope => ({ job, doc: { index: 'posts', id: `g${i}`, body: { text: gloomy[i % gloomy.length]!, lang: 'en' } } })),
      { job, doc: { index: 'posts', id: 'last', body: { text: 'what a great day', lang: 'en' } } },
    ];
    const run = async (extra: Record<string, unknown>): Promise<{ label: string; confidence: number }> => {
      const config = sentimentStage.schema.parse({ type: 'sentiment', ...extra });
      const out = await lastValueFrom(of(...envs()).pipe(sentimentStage.build(config, stageContext().ctx), toArray()));
      return out[out.length - 1]!.doc.body['sentiment'] as { label: string; confidence: number };
    };
    const on = await run({ en_prior_window: 1000 });
    const off = await run({});
    const { lang: _lang, ...alone } = model.classify('what a great day', 'en');
    expect(off).toEqual(alone);
    expect(on.label).toBe(off.label);
    expect(on.confidence).toBeLessThan(off.confidence - 0.02);
  });
});

describe('sentiment stage neutral band', () => {
  it('labels weak scores neutral when a band is set', async () => {
    const job = new JobTracker({ subject: 'weibo:user:1', state: newSubjectState(0), claimedAtMs: 0, leaseToken: 't' });
    const text = '周三下午两点开会，地点在三楼会议室';
    const { score, confidence } = model.classify(text, 'zh');
    const band = Math.min(1, Math.abs(score) + 0.01);
    const config = sentimentStage.schema.parse({ type: 'sentiment', neutral_band: band, zh_no_opinion_below: 0 });
    const out = await lastValueFrom(of<DocEnvelope>({ job, doc: { index: 'posts', id: 'n', body: { text, lang: 'zh' } } }).pipe(sentimentStage.build(config, stageContext().ctx), toArray()));
    expect(out[0]!.doc.body['sentiment']).toEqual({ score, label: 'neutral', confidence });
  });
});

describe('freshet sentiment (JSON lines)', () => {
  it('writes one {id, lang, label, score} line per input and an error line for bad input', async () => {
    const lines: string[] = [];
    const input = Readable.from(['{"id":"1","text":"好开心[哈哈]"}\n', 'not json\n', '{"id":2,"text":"I hate Mondays"}\n']);
    const failures = await classifyLines(input, model, (l) => lines.push(l));
    expect(failures).toBe(1);
    const rows = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(rows[0]!)).toEqual(['id', 'lang', 'label', 'score', 'confidence']);
    expect(rows[0]).toMatchObject({ id: '1', lang: 'zh', label: 'positive' });
    expect(rows[1]).toHaveProperty('error');
    expect(rows[2]).toMatchObject({ id: 2, lang: 'en', label: 'negative' });
  });
});

describe('scoreSentiment', () => {
  it('counts neutral on binary data as a miss (scikit-learn macro-F1 over the given labels)', () => {
    const s = scoreSentiment(['positive', 'negative', 'positive', 'negative'], ['positive', 'negative', 'neutral', 'positive'], ['negative', 'positive']);
    expect(s.accuracy).toBe(0.5);
    expect(s.neutralShare).toBe(0.25);
    // positive: p=1/2 r=1/2 f=0.5; negative: p=1 r=1/2 f=2/3
    expect(s.macroF1).toBeCloseTo((0.5 + 2 / 3) / 2, 6);
    expect(s.macroRecall).toBeCloseTo(0.5, 6);
  });
});

describe('English valence scan (VADER-style)', () => {
  const lex = new Map([['good', 1.9], ['bad', -2.5]]);
  const scan = (text: string): Valence => {
    const lower = text.split(' ');
    const caps = lower.map((t) => t.length > 1 && t === t.toUpperCase() && t !== t.toLowerCase());
    const toks = lower.map((t) => t.toLowerCase());
    return scanValence(toks, caps, toks.length, (i) => lex.get(toks[i]!), { pos: 0, neg: 0, hits: 0, last: 0, compound: 0 });
  };

  it('flips and damps a negated word, boosts after a degree word and in capitals', () => {
    expect(scan('good').compound).toBeGreaterThan(0);
    expect(scan('not good').compound).toBeLessThan(0);
    expect(scan('not good').neg).toBeCloseTo(1.9 * 0.74, 6);
    expect(scan('very good').pos).toBeCloseTo(1.9 + 0.293, 6);
    expect(scan('it is GOOD').pos).toBeCloseTo(1.9 + 0.733, 6);
    expect(scan('GOOD').pos).toBeCloseTo(1.9, 6); // all capitals: no emphasis
  });

  it('weighs the clause after "but" more and counts exclamations', () => {
    const v = scan('good but bad');
    expect(v.pos).toBeCloseTo(1.9 * 0.5, 6);
    expect(v.neg).toBeCloseTo(2.5 * 1.5, 6);
    expect(v.last).toBe(-1);
    expect(scan('good !!').compound).toBeGreaterThan(scan('good').compound);
    expect(scan('nothing here').hits).toBe(0);
  });

  it('reads camel-case hashtags and elongated words through the lexicon', () => {
    const fx = new FeatureExtractor();
    const lexicon = new Map([[wordHash('dump', false), -2], [wordHash('yes', false), 1.7]]);
    const strongVals = (text: string): number[] => { fx.extract(text, 'en', { lexicon }); return Array.from(fx.vals.subarray(0, fx.strong)); };
    // The real-valued compound is the first real feature below 1 in magnitude; it carries the sign.
    expect(strongVals('#DumpTrump').some((v) => v < 0)).toBe(true);
    expect(strongVals('#dumptrump').some((v) => v < 0)).toBe(false);
    // The tag's own negator does not flip the words after the tag.
    const worst = new Map([[wordHash('worst', false), -3.1]]);
    fx.extract('#NotMyPresident worst day', 'en', { lexicon: worst });
    expect(Array.from(fx.vals.subarray(0, fx.strong)).some((v) => v < 0)).toBe(true);
    expect(strongVals('YESSSSS').some((v) => v > 0 && v < 1)).toBe(true);
  });

  it('tokenises ASCII emoticons as words, not punctuation', () => {
    const fx = new FeatureExtractor();
    const lexicon = new Map([[wordHash(':)', false), 2]]);
    fx.extract('ok :)', 'en', { lexicon });
    const withSmiley = Array.from(fx.vals.subarray(0, fx.strong));
    fx.extract('ok', 'en', { lexicon });
    expect(withSmiley.length).toBeGreaterThan(fx.strong);
    expect(withSmiley.some((v) => v > 0 && v < 1)).toBe(true); // real-valued compound of a positive tweet
  });
});
