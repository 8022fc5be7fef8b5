import { ErrorCodes, FreshetError } from '../../../src/core/errors';
import { LastOrigin } from '../../../src/runner/last-origin';

describe('LastOrigin', () => {
  it('gives what new URL(url).origin gives, whatever came before', () => {
    const urls = [
      'http://127.0.0.1:8080/api/a?x=1', 'http://127.0.0.1:8080/b', 'http://127.0.0.1:80/c', 'http://127.0.0.1:8080//d',
      'HTTP://Example.COM/e', 'http://example.com/f', 'http://user:pw@example.com/g', 'http://example.com:80/h',
      'http://example.com.evil.test/i', 'http://example.com:8080/j', 'https://example.com/k', 'http://example.com?q', 'http://example.com#x',
      'file:///tmp/x', 'foo://null/y', 'http://example.com/z',
    ];
    const o = new LastOrigin();
    for (const url of urls) expect([url, o.of(url)]).toEqual([url, new URL(url).origin]);
  });

  it('throws an invalid-URL error for what is no URL, also after a valid one', () => {
    const o = new LastOrigin();
    o.of('http://example.com/a');
    for (const bad of ['not a url', '/relative', 'http://']) {
      let thrown: unknown;
      try {
        o.of(bad);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(FreshetError);
      expect((thrown as FreshetError).code).toBe(ErrorCodes.fetchInvalidUrl);
    }
  });
});
