/**
 * The frontier's Lua scripts. Each touches the keys of one shard (one hash slot) only.
 * Scores are milliseconds since the epoch.
 */

/** KEYS: due, lease, owner, state. ARGV: nowMs, n, leaseUntilMs, token. Returns [subject, state, …]. */
export const claimScript = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for _, s in ipairs(due) do
  redis.call('ZREM', KEYS[1], s)
  redis.call('ZADD', KEYS[2], ARGV[3], s)
  redis.call('HSET', KEYS[3], s, ARGV[4])
  out[#out + 1] = s
  out[#out + 1] = redis.call('HGET', KEYS[4], s) or ''
end
return out`;

/**
 * KEYS: due, lease, owner, state. ARGV: subject, token, stateJson, nextDueMs (negative: never).
 * Returns 1, or 0 when the lease was lost (expired and reclaimed): the state is then left to the
 * new owner, whose visit replays idempotently. An ack retried after its reply was lost (Redis
 * restarted, connection cut) finds its own state stored and no other owner, and still answers 1.
 */
export const ackScript = `
local owner = redis.call('HGET', KEYS[3], ARGV[1])
if owner ~= ARGV[2] then
  if not owner and redis.call('HGET', KEYS[4], ARGV[1]) == ARGV[3] then return 1 end
  return 0
end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[3])
if tonumber(ARGV[4]) >= 0 then redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1]) end
return 1`;

/** KEYS: lease, owner. ARGV: untilMs, token, subject… Returns how many leases were extended. */
export const extendScript = `
local n = 0
for i = 3, #ARGV do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[2] then
    redis.call('ZADD', KEYS[1], 'XX', ARGV[1], ARGV[i])
    n = n + 1
  end
end
return n`;

/** KEYS: due, lease, owner. ARGV: nowMs, max. Moves expired leases back to due now. */
export const reapScript = `
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, s in ipairs(expired) do
  redis.call('ZREM', KEYS[2], s)
  redis.call('HDEL', KEYS[3], s)
  redis.call('ZADD', KEYS[1], 'NX', ARGV[1], s)
end
return #expired`;

/**
 * Offers subjects. KEYS: bloom, state, due. ARGV: bits, hashes, dueMs, then (subject, stateJson)
 * pairs. The Bloom filter answers "certainly new" without touching the exact state; only a
 * "maybe seen" pays the HEXISTS. Bit positions by double hashing over the third and fourth 32-bit
 * words of redis.sha1hex: the first word picks the shard (shardOf), so within one shard it is
 * constant modulo the shard count and would crowd the bits (3.7 % false positives instead of 1 %).
 * `bloomPositions` (bloom.ts) is the same function in TypeScript. Returns the number added.
 */
export const offerScript = `
local m = tonumber(ARGV[1])
local k = tonumber(ARGV[2])
local added = 0
if redis.call('EXISTS', KEYS[1]) == 0 then
  -- Allocated whole and exact once: grown bit by bit, SETBIT over-allocates (up to 2x, +1 MB steps).
  redis.call('SETRANGE', KEYS[1], math.floor((m - 1) / 8), string.char(0))
end
for i = 4, #ARGV, 2 do
  local s = ARGV[i]
  local hex = redis.sha1hex(s)
  local h1 = tonumber(string.sub(hex, 17, 24), 16)
  local h2 = tonumber(string.sub(hex, 25, 32), 16)
  local maybe = true
  local pos = {}
  for j = 0, k - 1 do
    local p = (h1 + j * h2) % m
    pos[#pos + 1] = p
    if maybe and redis.call('GETBIT', KEYS[1], p) == 0 then maybe = false end
  end
  local isNew = not maybe or redis.call('HEXISTS', KEYS[2], s) == 0
  if isNew then
    for _, p in ipairs(pos) do redis.call('SETBIT', KEYS[1], p, 1) end
    if redis.call('HSETNX', KEYS[2], s, ARGV[i + 1]) == 1 then
      redis.call('ZADD', KEYS[3], 'NX', ARGV[3], s)
      added = added + 1
    end
  end
end
return added`;

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
