import { wordHash } from '../../../src/enrichers/sentiment/feature-hash';
import { FeatureExtractor } from '../../../src/enrichers/sentiment/features';

describe('en maskNames', () => {
  const feats = (fe: FeatureExtractor, text: string, lexicon?: ReadonlyMap<number, number>): Set<number> =>
    new Set(fe.extract(text, 'en', lexicon ? { lexicon } : {}));

  it('reads a capitalised word inside a sentence as the name placeholder, its char n-grams left out', () => {
    const plain = new FeatureExtractor(undefined, {}, { charNgrams: true });
    const masked = new FeatureExtractor(undefined, {}, { charNgrams: true, maskNames: true });
    const text = 'so excited for Kanye tonight';
    expect(feats(plain, text).has(wordHash('kanye', false))).toBe(true);
    const m = feats(masked, text);
    expect(m.has(wordHash('kanye', false))).toBe(false);
    expect(m.has(wordHash('<name>', false))).toBe(true);
    // Two names in two tweets read alike, so neither topic's tone sticks to its name.
    expect([...feats(masked, 'so excited for Drake tonight')].sort()).toEqual([...m].sort());
  });

  it('keeps sentence starts, all-caps words and lexicon words as themselves', () => {
    const masked = new FeatureExtractor(undefined, {}, { maskNames: true });
    const lexicon = new Map([[wordHash('love', false), 3.2]]);
    const f = feats(masked, 'Kanye was great. Drake was LAME and I Love it', lexicon);
    expect(f.has(wordHash('kanye', false))).toBe(true); // first word
    expect(f.has(wordHash('drake', false))).toBe(true); // after a full stop
    expect(f.has(wordHash('lame', false))).toBe(true); // all capitals
    expect(f.has(wordHash('love', false))).toBe(true); // a lexicon word
    expect(f.has(wordHash('<name>', false))).toBe(false);
  });

  it('changes nothing when off', () => {
    const a = new FeatureExtractor(undefined, {}, {});
    const b = new FeatureExtractor(undefined, {}, { maskNames: false });
    const text = 'watching Arsenal with Sam';
    expect([...feats(a, text)]).toEqual([...feats(b, text)]);
  });
});
