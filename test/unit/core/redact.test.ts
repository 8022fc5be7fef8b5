import { redactUrl, redactUrlsIn } from '../../../src/core/redact';

describe('redactUrl', () => {
  it.each([
    ['https://user:pass@e.com/x', 'https://[redacted]@e.com/x'],
    ['http://elastic:s3cret@h:9200', 'http://[redacted]@h:9200'],
    // WHATWG splits at the authority's last @, so a raw @ in a password must not leave its tail.
    ['http://u:p@ss@h:9200/_cluster', 'http://[redacted]@h:9200/_cluster'],
    ['redis://:pw@127.0.0.1:6390/0', 'redis://[redacted]@127.0.0.1:6390/0'],
    ['https://e.com/a@b', 'https://e.com/a@b'],
    ['https://api.example.com/x?access_token=abc&count=2', 'https://api.example.com/x?access_token=[redacted]&count=2'],
    ['not a url', 'not a url'],
    ['cluster 10.0.0.1:7000,10.0.0.2:7000', 'cluster 10.0.0.1:7000,10.0.0.2:7000'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('redactUrlsIn', () => {
  it('redacts every URL inside a message or a JSON log line', () => {
    expect(redactUrlsIn('search node at http://a:pw1@h:1 is unreachable; tried https://b:pw2@k:2/x too'))
      .toBe('search node at http://[redacted]@h:1 is unreachable; tried https://[redacted]@k:2/x too');
    const line = JSON.stringify({ msg: 'bulk failed', err: { message: 'connect ECONNREFUSED http://e:pw3@127.0.0.1:9250/_bulk' }, who: 'a@b.c' });
    expect(redactUrlsIn(line)).not.toContain('pw3');
    expect(redactUrlsIn(line)).toContain('"who":"a@b.c"');
  });
});
