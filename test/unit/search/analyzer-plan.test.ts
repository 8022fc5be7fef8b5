import { join } from 'node:path';
import { FreshetError } from '../../../src/core/errors';
import { ANALYZER_FALLBACKS, FALLBACK_META_KEY, fallbackWarning, planAnalyzers, referencedAnalyzers, withFallbacks, type Availability } from '../../../src/search/analyzer-plan';
import { loadTemplates } from '../../../src/search/templates';

const MAPPINGS = join(__dirname, '..', '..', '..', 'mappings');
/** Elasticsearch 8.19.7's answer to `POST /_analyze {"analyzer":"cjk"}` on its core-only zip. */
const NO_CJK: Availability = { ok: false, reason: 'illegal_argument_exception: failed to find global analyzer [cjk]' };
const node = 'elasticsearch 8.19.7';
const answers = (m: Record<string, Availability>) => (name: string): Availability | undefined => m[name];

describe('referencedAnalyzers', () => {
  it('finds analyzers in fields, objects and multi-fields, and skips the ones the settings define', () => {
    const t = {
      settings: { analysis: { analyzer: { mine: { type: 'custom', tokenizer: 'standard' } } }, 'index.analysis.analyzer.flat.type': 'custom' },
      mappings: { properties: {
        a: { type: 'text', analyzer: 'cjk', search_analyzer: 'standard' },
        b: { properties: { c: { type: 'keyword', fields: { t: { type: 'text', analyzer: 'english', search_quote_analyzer: 'whitespace' } } } } },
        d: { type: 'text', analyzer: 'mine' },
        e: { type: 'text', analyzer: 'flat' },
      } },
    };
    expect(referencedAnalyzers(t)).toEqual(['cjk', 'standard', 'english', 'whitespace']);
  });

  it('sees the cjk analyzer every text field of mappings/ uses', () => {
    const all = new Set(loadTemplates(MAPPINGS).flatMap((t) => referencedAnalyzers(t.body.template)));
    expect([...all]).toEqual(['cjk']);
  });
});

describe('planAnalyzers', () => {
  it('changes nothing when the node has every analyzer', () => {
    expect(planAnalyzers(['cjk'], answers({ cjk: { ok: true } }), node)).toEqual({ fallbacks: [] });
  });

  it('falls back from cjk to standard when the node lacks cjk and has standard', () => {
    expect(ANALYZER_FALLBACKS['cjk']).toBe('standard');
    const plan = planAnalyzers(['cjk'], answers({ cjk: NO_CJK, standard: { ok: true } }), node);
    expect(plan.fallbacks).toEqual([{ analyzer: 'cjk', fallback: 'standard', reason: NO_CJK.reason }]);
    expect(fallbackWarning(plan, node)).toBe('the search node (elasticsearch 8.19.7) lacks the cjk analyzer (illegal_argument_exception: failed to find global analyzer [cjk]); '
      + 'text fields use standard instead of cjk (see README, "Search engines")');
  });

  it('refuses in one line, naming the analyzer and the node, when there is no documented fallback', () => {
    const refuse = () => planAnalyzers(['cjk', 'english'], answers({ cjk: { ok: true }, english: { ok: false, reason: 'failed to find global analyzer [english]' } }), node);
    expect(refuse).toThrow(FreshetError);
    expect(refuse).toThrow('the search node (elasticsearch 8.19.7) lacks the analyzer [english] (failed to find global analyzer [english]; no documented fallback) that mappings/ use');
  });

  it('refuses when the fallback is missing too', () => {
    expect(() => planAnalyzers(['cjk'], answers({ cjk: NO_CJK, standard: { ok: false, reason: 'gone' } }), node))
      .toThrow(/lacks the analyzer \[cjk\] \(.*failed to find global analyzer \[cjk\]; its fallback \[standard\]: gone\)/);
  });
});

describe('withFallbacks', () => {
  const posts = loadTemplates(MAPPINGS).find((t) => t.name === 'posts')!.body.template.mappings;
  const plan = { fallbacks: [{ analyzer: 'cjk', fallback: 'standard', reason: 'x' }] };

  it('replaces the analyzer everywhere and records the fallback in _meta, keeping the rest', () => {
    const out = withFallbacks(posts, plan);
    expect(referencedAnalyzers({ mappings: out })).toEqual(['standard']);
    expect((out.properties['text'] as { analyzer: string }).analyzer).toBe('standard');
    expect(out._meta).toMatchObject({ freshet: expect.any(String), [FALLBACK_META_KEY]: { cjk: 'standard' } });
    expect(out.dynamic).toBe('strict');
    expect(Object.keys(out.properties)).toEqual(Object.keys(posts.properties));
    // The input is not modified.
    expect((posts.properties['text'] as { analyzer: string }).analyzer).toBe('cjk');
  });

  it('leaves mappings without the analyzer (and empty plans) untouched', () => {
    const plain = { dynamic: 'strict' as const, properties: { a: { type: 'keyword' } } };
    expect(withFallbacks(plain, plan)).toBe(plain);
    expect(withFallbacks(posts, { fallbacks: [] })).toBe(posts);
  });
});
