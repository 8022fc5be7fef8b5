import { useRedis, type TestRedis } from '../../helpers/services';

describe('Redis round trip (real redis-server)', () => {
  let t: TestRedis;
  beforeAll(async () => {
    t = await useRedis('redis-round-trip');
  });
  afterAll(async () => t.cleanup());

  it('runs with AOF on, so acknowledged state survives a restart', async () => {
    expect(await t.redis.config('GET', 'appendonly')).toEqual(['appendonly', 'yes']);
  });

  it('round-trips hashes and a due ZSET in score order', async () => {
    const state = `${t.prefix}state`;
    const due = `${t.prefix}due`;
    await t.redis.hset(state, 'weibo:user:1', '{"posts":3}', 'weibo:user:2', '{"posts":0}');
    await t.redis.zadd(due, 2000, 'weibo:user:2', 1000, 'weibo:user:1');
    expect(await t.redis.hget(state, 'weibo:user:1')).toBe('{"posts":3}');
    expect(await t.redis.zrangebyscore(due, '-inf', 1500)).toEqual(['weibo:user:1']);
  });

  it('runs a Lua script atomically (claim-style move between ZSETs)', async () => {
    const due = `${t.prefix}claim:due`;
    const lease = `${t.prefix}claim:lease`;
    await t.redis.zadd(due, 1, 'a', 2, 'b', 3, 'c');
    const script = `
      local items = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
      for _, m in ipairs(items) do
        redis.call('ZREM', KEYS[1], m)
        redis.call('ZADD', KEYS[2], ARGV[3], m)
      end
      return items`;
    const claimed = await t.redis.eval(script, 2, due, lease, '2', '10', '99');
    expect(claimed).toEqual(['a', 'b']);
    expect(await t.redis.zrange(due, '0', '-1')).toEqual(['c']);
    expect(await t.redis.zrange(lease, '0', '-1', 'WITHSCORES')).toEqual(['a', '99', 'b', '99']);
  });
});
