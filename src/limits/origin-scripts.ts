/**
 * Takes an origin's fetch slot if it is free now: requests are minDelayMs apart across every
 * worker, and at most maxConcurrency run at once (0: unlimited; holders are a ZSET scored by
 * expiry, so a dead worker's slot frees itself). A slot is taken only at the moment of sending —
 * reserving a future slot and sleeping to it lets two late timers fire in the same tick.
 * KEYS: origin hash, origin holders ZSET. ARGV: nowMs, minDelayMs, maxWaitMs, maxConcurrency,
 * holder, holdUntilMs. Returns {0, 0}: taken, send now; {3, wait}: free in `wait` ms, ask again
 * then; {1, wait}: further than maxWaitMs (reschedule the subject instead of holding a credit: no
 * head-of-line blocking); {2, 0}: every concurrency slot is busy.
 */
export const politeScript = `
local now = tonumber(ARGV[1])
local gap = tonumber(ARGV[2])
local maxConc = tonumber(ARGV[4])
if maxConc > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('ZCARD', KEYS[2]) >= maxConc then return {2, 0} end
end
local nextAt = tonumber(redis.call('HGET', KEYS[1], 'next') or '0')
local wait = nextAt - now
if wait > tonumber(ARGV[3]) then return {1, wait} end
if wait > 0 then return {3, wait} end
if gap > 0 then
  redis.call('HSET', KEYS[1], 'next', now + gap)
  redis.call('PEXPIRE', KEYS[1], gap * 2 + 60000)
end
if maxConc > 0 then
  redis.call('ZADD', KEYS[2], ARGV[6], ARGV[5])
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[6]) - now + 60000)
end
return {0, 0}`;

/** KEYS: origin holders ZSET. ARGV: holder. */
export const releaseScript = `return redis.call('ZREM', KEYS[1], ARGV[1])`;
