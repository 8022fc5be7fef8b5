import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bowPage } from '../../../src/eval/bow';
import { loadDataset, type DatasetPage } from '../../../src/eval/dataset';
import { aggregate, scorePage, type AggregateScore } from '../../../src/eval/score';
import { shAggregate, shPage, shPrecision, shRecall } from '../../../src/eval/shingles';
import { cjkTokens, wordTokens } from '../../../src/eval/tokenize';

describe('tokenizers', () => {
  it('\\w+ keeps a Chinese clause as one token, the CJK tokenizer splits ideographs', () => {
    expect(wordTokens('新华网北京12月9日电，Hello_world 42')).toEqual(['新华网北京12月9日电', 'Hello_world', '42']);
    expect(cjkTokens('新华网12月 abc')).toEqual(['新', '华', '网', '12', '月', 'abc']);
  });
});

describe('SH (Scrapinghub evaluate.py)', () => {
  it('normalises tp/fp/fn by their sum and handles texts shorter than a shingle', () => {
    const s = shPage('a b c d e', 'a b c d x');
    expect(s.tp).toBeCloseTo(1 / 3);
    expect(s.fp).toBeCloseTo(1 / 3);
    expect(shPage('one two', 'one two')).toEqual({ tp: 1, fp: 0, fn: 0 });
  });

  it('averages P and R over pages separately and leaves empty sides out', () => {
    const pages = [shPage('a b c d', 'a b c d'), shPage('', 'w x y z'), shPage('a b c d', '')];
    expect(shPrecision(pages[1]!)).toBe(0);
    expect(shRecall(pages[2]!)).toBe(0);
    const agg = shAggregate(pages);
    expect(agg.precision).toBeCloseTo(0.5); // pages 1 and 2 have predicted shingles
    expect(agg.recall).toBeCloseTo(0.5); // pages 1 and 3 have true shingles
  });
});

describe('BOW (WCXB evaluate.py)', () => {
  it('is lower-cased bag-of-words F1; empty truth and output is perfect', () => {
    expect(bowPage('The cat sat', 'the CAT').f1).toBeCloseTo(0.8);
    expect(bowPage('', '').f1).toBe(1);
    expect(bowPage('', 'boilerplate').f1).toBe(0);
  });
});

// The published numbers: reproduced on the shared data set when it is present next to the project.
const DATA = join(__dirname, '..', '..', '..', '..', 'shared', 'data', 'extraction-dev');
const haveData = existsSync(join(DATA, 'manifest.json'));
(haveData ? describe : describe.skip)('published baselines of extraction-dev', () => {
  type Triple = { F1: number; P: number; R: number };
  type Summary = Record<'SH' | 'SH_CJK' | 'BOW', Triple> & { n: number };
  let pages: DatasetPage[];
  let ref: {
    outputs: Record<string, Record<string, string>>;
    published: Record<string, Record<string, string>>;
    per_page_scores: Record<string, Record<string, Record<string, number>>>;
  };
  let summary: {
    readability_js_linkedom: { overall: Summary; by_source: Record<string, Summary> };
    fulltext_floor: { overall: Summary };
    published_systems_on_same_pages: Record<string, Record<string, Summary>>;
  };
  beforeAll(() => {
    pages = loadDataset(DATA);
    ref = JSON.parse(readFileSync(join(DATA, 'baselines', 'reference-outputs.json'), 'utf8'));
    summary = JSON.parse(readFileSync(join(DATA, 'baselines', 'summary.json'), 'utf8'));
  });

  const expectSummary = (got: AggregateScore, want: Summary): void => {
    expect(got.n).toBe(want.n);
    for (const m of ['SH', 'SH_CJK', 'BOW'] as const) {
      expect(got[m].f1).toBeCloseTo(want[m].F1, 4);
      expect(got[m].precision).toBeCloseTo(want[m].P, 4);
      expect(got[m].recall).toBeCloseTo(want[m].R, 4);
    }
  };
  const outputKey = (prefix: string): string => Object.keys(ref.outputs).find((k) => k.startsWith(prefix))!;
  const score = (outputs: Record<string, string>, subset: DatasetPage[]): AggregateScore =>
    aggregate(subset.map((p) => scorePage(p.truthText, outputs[p.id] ?? '')));

  it('reproduces every per-page score of Readability.js and of the whole-text floor', () => {
    const mismatches: string[] = [];
    for (const [sys, key] of [['readability_js_linkedom', 'readability-js'], ['fulltext', 'fulltext']] as const) {
      const outputs = ref.outputs[outputKey(key)]!;
      for (const p of pages) {
        const want = ref.per_page_scores[p.id]![sys]!;
        const got = scorePage(p.truthText, outputs[p.id] ?? '');
        // The published per-page scores are rounded to 4 decimals.
        const off = (x: number, y: number | undefined): boolean => Math.abs(x - (y ?? NaN)) > 5.1e-5 || Number.isNaN(y);
        if (off(got.bow.f1, want.BOW_F1)) mismatches.push(`${sys} ${p.id} BOW_F1`);
        if (got.sh.tp + got.sh.fp > 0 && off(shPrecision(got.sh), want.SH_P)) mismatches.push(`${sys} ${p.id} SH_P`);
        if (got.sh.tp + got.sh.fn > 0 && off(shRecall(got.sh), want.SH_R)) mismatches.push(`${sys} ${p.id} SH_R`);
        if (got.shCjk.tp + got.shCjk.fp > 0 && off(shPrecision(got.shCjk), want.SH_CJK_P)) mismatches.push(`${sys} ${p.id} SH_CJK_P`);
        if (got.shCjk.tp + got.shCjk.fn > 0 && off(shRecall(got.shCjk), want.SH_CJK_R)) mismatches.push(`${sys} ${p.id} SH_CJK_R`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('reproduces the aggregate scores of Readability.js overall and per source, and of the floor', () => {
    const rjs = ref.outputs[outputKey('readability-js')]!;
    expectSummary(score(rjs, pages), summary.readability_js_linkedom.overall);
    for (const [source, want] of Object.entries(summary.readability_js_linkedom.by_source)) {
      expectSummary(score(rjs, pages.filter((p) => p.source === source)), want);
    }
    expectSummary(score(ref.outputs[outputKey('fulltext')]!, pages), summary.fulltext_floor.overall);
  });

  it('reproduces the published trafilatura 2.0.0 numbers (SH-F1 0.965 on the Scrapinghub pages)', () => {
    const shPages = pages.filter((p) => p.source === 'scrapinghub');
    const traf = ref.published[Object.keys(ref.published).find((k) => k.includes('trafilatura.json'))!]!;
    const want = summary.published_systems_on_same_pages.scrapinghub!['trafilatura (2.0.0)']!;
    expectSummary(score(traf, shPages), want);
    expect(want.SH.F1).toBeCloseTo(0.965, 3);
    const cw = pages.filter((p) => p.source === 'chinese-web-content-extraction-dataset');
    const cwTraf = ref.published[Object.keys(ref.published).find((k) => k.startsWith('cwced'))!]!;
    expectSummary(score(cwTraf, cw), summary.published_systems_on_same_pages['chinese-web-content-extraction-dataset']!['trafilatura (2022, tmp/result.json)']!);
  });
});
