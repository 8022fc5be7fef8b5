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

describe('FRESHET_REDIS_CLUSTER', () => {
  it('reads seed nodes as host:port, with or without redis://', () => {
    expect(readSettings({ FRESHET_REDIS_CLUSTER: '127.0.0.1:7101, redis://r2:7102,[::1]:7103' }).redisCluster)
      .toEqual([{ host: '127.0.0.1', port: 7101 }, { host: 'r2', port: 7102 }, { host: '::1', port: 7103 }]);
    expect(readSettings({}).redisCluster).toBeUndefined();
  });

  it('names a malformed seed', () => {
    expect(() => readSettings({ FRESHET_REDIS_CLUSTER: 'r1:7101,r2' })).toThrow(/"r2" is not host:port/);
    expect(() => readSettings({ FRESHET_REDIS_CLUSTER: 'r1:70000' })).toThrow(/"r1:70000" is not host:port/);
  });
});
