import { zhWordHash } from '../../../src/enrichers/sentiment/feature-hash';
import { OpinionWords } from '../../../src/enrichers/sentiment/opinion-words';
import { ZH_LEXICON_MAX_LEN, zhLexiconCounts as countsIn, zhLexiconTable } from '../../../src/enrichers/sentiment/zh-lexicon';
import { seededRng } from '../../../src/core/rng';

/** The lexicon counts read the plain way: every substring of 2–4 characters looked up by its hash. */
const zhLexiconCounts = (text: string, lexicon: ReadonlyMap<number, number>): { pos: number; neg: number } => countsIn(text, zhLexiconTable(lexicon));

function naiveCounts(text: string, lexicon: ReadonlyMap<number, number>): { pos: number; neg: number } {
  let pos = 0;
  let neg = 0;
  for (let i = 0; i < text.length; i++) {
    for (let len = 2; len <= ZH_LEXICON_MAX_LEN && i + len <= text.length; len++) {
      const p = lexicon.get(zhWordHash(text.slice(i, i + len)));
      if (p !== undefined && p > 0) pos++;
      else if (p !== undefined && p < 0) neg++;
    }
  }
  return { pos, neg };
}

describe('zhLexiconCounts (hash table scan)', () => {
  const words: [string, number][] = [['失望', -1], ['开心', 1], ['太开心', 1], ['很不开心', -1], ['一般', 0], ['糟糕', -1], ['满意', 1]];
  const lexicon = new Map(words.map(([w, p]) => [zhWordHash(w), p]));

  it('counts every occurrence, overlaps too, and words of polarity 0 as neither', () => {
    // 太开心 and the 开心 in it, the 开心 inside 很不开心: three positive; 很不开心 and 失望: two negative.
    expect(zhLexiconCounts('今天太开心，很不开心也失望，一般般', lexicon)).toEqual({ pos: 3, neg: 2 });
    expect(zhLexiconCounts('', lexicon)).toEqual({ pos: 0, neg: 0 });
    expect(zhLexiconCounts('开', lexicon)).toEqual({ pos: 0, neg: 0 });
  });

  it('gives the counts of a lookup of every substring, on random texts and a lexicon that fills its table', () => {
    const rng = seededRng(7);
    const alphabet = '失望开心太很不一般糟糕满意的了我你好';
    const pick = (n: number): string => Array.from({ length: n }, () => alphabet[Math.floor(rng.next() * alphabet.length)]).join('');
    // Many words: the table probes past collisions.
    const big = new Map<number, number>();
    for (let i = 0; i < 300; i++) big.set(zhWordHash(pick(2 + (i % 3))), i % 3 === 0 ? 1 : i % 3 === 1 ? -1 : 0);
    for (let i = 0; i < 200; i++) {
      const text = pick(1 + Math.floor(rng.next() * 60));
      expect(zhLexiconCounts(text, lexicon)).toEqual(naiveCounts(text, lexicon));
      expect(zhLexiconCounts(text, big)).toEqual(naiveCounts(text, big));
    }
  });
});

describe('OpinionWords scan', () => {
  it('finds a word longer than every other of its first two characters, and every word once in text order', () => {
    const words = new OpinionWords(new Map([['失望透顶了吧', -1], ['失望', -1], ['开心', 1], ['心情', 1], ['太差劲了真是糟糕透顶', -1]]));
    expect(words.supporting('真是失望透顶了吧，心情不开心', -1)).toEqual(['失望', '失望透顶了吧']);
    expect(words.supporting('这家店太差劲了真是糟糕透顶，失望')).toEqual(['太差劲了真是糟糕透顶', '失望']);
    expect(words.supporting('开心开心，心情好', 1)).toEqual(['开心', '心情']);
    expect(words.supporting('失望透顶了', -1)).toEqual(['失望']);
  });
});
