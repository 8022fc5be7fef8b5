import { readSettings } from '../../../src/cli/env';

describe('readSettings', () => {
  it('has local defaults', () => {
    expect(readSettings({})).toEqual({ redisUrl: 'redis://127.0.0.1:6390', esUrl: 'http://127.0.0.1:9250', indexPrefix: 'freshet-' });
  });

  it('reads URLs, credentials and the prefix, trimming a trailing slash', () => {
    const s = readSettings({
      FRESHET_REDIS_URL: 'redis://r:1', FRESHET_ES_URL: 'https://es:9200/', FRESHET_ES_API_KEY: 'abc', FRESHET_INDEX_PREFIX: 'prod-',
    });
    expect(s).toMatchObject({ redisUrl: 'redis://r:1', esUrl: 'https://es:9200', esApiKey: 'abc', indexPrefix: 'prod-' });
  });

  it('treats empty variables as unset and rejects an invalid index prefix', () => {
    expect(readSettings({ FRESHET_ES_URL: '' }).esUrl).toBe('http://127.0.0.1:9250');
    expect(() => readSettings({ FRESHET_INDEX_PREFIX: 'Bad Prefix' })).toThrow(/not a valid index name prefix/);
  });
});
