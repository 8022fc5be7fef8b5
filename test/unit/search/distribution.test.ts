import { detectDistribution } from '../../../src/search/distribution';
import { FreshetError } from '../../../src/core/errors';

describe('detectDistribution', () => {
  it('recognises OpenSearch 2.x from GET /', () => {
    expect(detectDistribution({ version: { distribution: 'opensearch', number: '2.19.1' } }))
      .toEqual({ distribution: 'opensearch', version: '2.19.1', major: 2 });
  });

  it('treats a body without distribution as Elasticsearch', () => {
    expect(detectDistribution({ version: { number: '9.1.0', build_flavor: 'default' } }))
      .toEqual({ distribution: 'elasticsearch', version: '9.1.0', major: 9 });
  });

  it('refuses Elasticsearch 7 and OpenSearch 1 with a stable code', () => {
    for (const body of [{ version: { number: '7.17.0' } }, { version: { number: '1.3.0', distribution: 'opensearch' } }]) {
      let caught: unknown;
      try {
        detectDistribution(body);
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(FreshetError);
      expect((caught as FreshetError).code).toBe('E_SEARCH_UNSUPPORTED');
    }
  });

  it('refuses a body that is not a search node', () => {
    expect(() => detectDistribution({ hello: 'world' })).toThrow(/no version.number/);
    expect(() => detectDistribution(null)).toThrow(FreshetError);
  });
});
