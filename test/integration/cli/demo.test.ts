import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { indexName } from '../../../src/search/templates';
import { FRESHET_BIN } from '../../helpers/crawl';
import { engine } from '../../helpers/engine';
import { deleteKeys, testSettings, useSearch, type TestSearch } from '../../helpers/services';

const run = promisify(execFile);

/**
 * `freshet demo`, the README's quick start, end to end against the search node under test:
 * templates, crawl, bulk indexing, search with highlights and a sentiment aggregation.
 */
describe('freshet demo (built CLI, real services)', () => {
  let s: TestSearch;
  // The demo's keys live under `freshet:demo`; a Redis database of its own keeps them apart from
  // anyone's demo on the shared Redis, and is emptied of exactly those keys afterwards.
  const db = 1 + Math.floor(Math.random() * 15);
  const redisUrl = `${testSettings().redisUrl.replace(/\/\d*$/, '')}/${db}`;
  beforeAll(async () => {
    s = await useSearch('demo');
  });
  afterAll(async () => {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    await deleteKeys(redis, 'freshet:demo*');
    redis.disconnect();
    await s.cleanup();
  });

  it('crawls the simulated site into the index and prints a search with highlights and moods', async () => {
    const env = { ...process.env, FRESHET_INDEX_PREFIX: s.prefix, FRESHET_REDIS_URL: redisUrl, FRESHET_LOG_LEVEL: 'warn' };
    const { stdout, stderr } = await run('node', [FRESHET_BIN, 'demo', '--users', '25', '--seed', '7'], { env, timeout: 110_000 });
    expect(stdout).toMatch(/^search .* ok /m);
    const crawled = /crawled (\d+) users with \d+ requests in [\d.]+ s: (\d+) documents indexed, (\d+) dead-lettered, (\d+) failed visits/.exec(stdout);
    expect(crawled).not.toBeNull();
    expect(Number(crawled![1])).toBe(25);
    expect(Number(crawled![2])).toBeGreaterThan(25);
    expect([crawled![3], crawled![4]]).toEqual(['0', '0']);
    const index = indexName(s.prefix, 'posts');
    const found = new RegExp(`index ${index}: (\\d+) posts\\. Search "天气": (\\d+) hits`).exec(stdout);
    expect(found).not.toBeNull();
    expect(Number(found![2])).toBeGreaterThan(0);
    expect(stdout).toMatch(/^ {2}@\S+ .*«[^»]+»/m);
    expect(stdout).toMatch(/sentiment of the matching posts: (positive|negative|neutral) \d+/);
    // A node without cjk: the documented fallback, said once (a warning, not an error).
    if (engine().cjk.ok) expect(stderr).not.toMatch(/lacks the cjk analyzer/);
    else expect(stderr.match(/lacks the cjk analyzer/g)).toHaveLength(1);
  });
});
