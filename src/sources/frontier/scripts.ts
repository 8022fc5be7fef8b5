/**
 * The frontier's Lua scripts. Each touches the keys of one shard (one hash tag, one slot) only.
 * Times are milliseconds since the epoch.
 *
 * Layout of a shard (keys.ts): subjects live in `buckets` small hashes (`<tag>:b:<i>`, bucket =
 * second sha1 word of the subject mod buckets), field = subject, value = 6-byte due time + packed
 * state (packed-state.ts). Sized to stay under Redis's default hash-max-listpack-entries (128)
 * and -value (64 bytes), so each bucket is one compact listpack and needs no server config. `bdue`
 * is a ZSET of buckets scored by a lower bound of their earliest due time: a claim takes the
 * first bucket from it (O(log buckets)) and scans that one bucket (at most ~128 entries), so a
 * claim costs the same with 10 k or 10 M subjects. The bucket keys are derived inside the
 * scripts from the tag passed in ARGV: same hash tag, so same slot on a Redis Cluster. `n` counts
 * subjects and scheduled subjects; `lease`/`owner` hold only the subjects in flight.
 */

/**
 * Shared Lua helpers: the due prefix (7 bytes, big-endian microseconds; all 0xFF: not scheduled),
 * a subject's bucket, and `put`, a write that keeps the counts in `n` and the bucket bounds in
 * `bdue` right; `flush` applies what the puts of one script call added up.
 */
const lib = `
local NEVER = string.rep(string.char(255), 7)
local function isNever(v) return string.byte(v, 1) == 255 end
local function dueOf(v)
  local a, b, c, d, e, f, g = string.byte(v, 1, 7)
  return (((((a * 256 + b) * 256 + c) * 256 + d) * 256 + e) * 256 + f) * 256 + g
end
local function duePrefix(us)
  local t = {}
  for i = 7, 1, -1 do t[i] = us % 256; us = math.floor(us / 256) end
  return string.char(t[1], t[2], t[3], t[4], t[5], t[6], t[7])
end
local function us(ms) return math.floor(tonumber(ms) * 1000 + 0.5) end
-- The packed state behind the due prefix (what every rewrite of the due time keeps).
local function stateOf(v) return string.sub(v, 8) end
local function bucketOf(s, buckets)
  return tonumber(string.sub(redis.sha1hex(s), 9, 16), 16) % buckets
end
local function checkLayout(nKey, buckets)
  local stored = redis.call('HGET', nKey, 'buckets')
  if not stored then redis.call('HSET', nKey, 'buckets', buckets)
  elseif tonumber(stored) ~= tonumber(buckets) then
    return redis.error_reply('FRESHET_FRONTIER_LAYOUT frontier was created with ' .. stored .. ' buckets per shard, this worker computes ' .. buckets .. ' (bloom_capacity and shards must match every worker)')
  end
end
local dSubjects, dDue, bmin = 0, 0, {}
-- Counts a write of value for a subject of bucket b (old: its previous value, false when new).
local function account(b, old, value)
  local was = old and not isNever(old)
  local is = not isNever(value)
  if not old then dSubjects = dSubjects + 1 end
  if is and not was then dDue = dDue + 1 end
  if was and not is then dDue = dDue - 1 end
  if is then
    local d = dueOf(value)
    if not bmin[b] or d < bmin[b] then bmin[b] = d end
  end
end
local function put(bk, b, s, old, value)
  redis.call('HSET', bk, s, value)
  account(b, old, value)
end
local function flush(bdue, nKey)
  if dSubjects ~= 0 then redis.call('HINCRBY', nKey, 'subjects', dSubjects) end
  if dDue ~= 0 then redis.call('HINCRBY', nKey, 'due', dDue) end
  for b, d in pairs(bmin) do redis.call('ZADD', bdue, 'LT', d, b) end
end
`;

/**
 * KEYS: bdue, lease, owner, n. ARGV: nowMs, n, leaseUntilMs, token, bucketPrefix.
 * Returns [subject, value, …] (value with the due prefix cleared: leased). Subjects go strictly
 * by due time within the shard, as from one sorted set: from the lowest bucket it takes only what
 * is due before the next bucket's bound, then looks again (the runner's breadth-first discovery
 * relies on it). Each pass takes a subject or lifts a stale bound, so it ends.
 */
export const claimScript = `${lib}
local now = us(ARGV[1])
local want = tonumber(ARGV[2])
local out = {}
local taken = 0
while taken < want do
  local low = redis.call('ZRANGE', KEYS[1], 0, 1, 'WITHSCORES')
  if not low[1] or tonumber(low[2]) > now then break end
  local b = low[1]
  local limit = now
  if low[3] and tonumber(low[4]) < limit then limit = tonumber(low[4]) end
  local bk = ARGV[5] .. b
  local kv = redis.call('HGETALL', bk)
  local ready = {}
  local minDue = nil
  for i = 1, #kv, 2 do
    local v = kv[i + 1]
    if not isNever(v) then
      local d = dueOf(v)
      if d <= limit then ready[#ready + 1] = {d, kv[i], v}
      elseif not minDue or d < minDue then minDue = d end
    end
  end
  table.sort(ready, function(x, y) if x[1] ~= y[1] then return x[1] < y[1] end return x[2] < y[2] end)
  for _, r in ipairs(ready) do
    if taken < want then
      local leased = NEVER .. stateOf(r[3])
      redis.call('HSET', bk, r[2], leased)
      redis.call('ZADD', KEYS[2], ARGV[3], r[2])
      redis.call('HSET', KEYS[3], r[2], ARGV[4])
      out[#out + 1] = r[2]
      out[#out + 1] = leased
      taken = taken + 1
    elseif not minDue or r[1] < minDue then
      minDue = r[1]
    end
  end
  if minDue then redis.call('ZADD', KEYS[1], minDue, b) else redis.call('ZREM', KEYS[1], b) end
end
if taken > 0 then redis.call('HINCRBY', KEYS[4], 'due', -taken) end
return out`;

/**
 * KEYS: bdue, lease, owner, n. ARGV: buckets, bucketPrefix, then subject, token, value for each
 * acknowledged visit of the shard. Returns, per visit in order, 1, or 0 when the lease was lost
 * (expired and reclaimed): the state is then left to the new owner, whose visit replays
 * idempotently. An ack retried after its reply was lost (Redis restarted, connection cut) finds its
 * own state stored and no other owner, and still answers 1. One call per shard and batch instead of
 * one per visit: the counts and bucket bounds add up the same, per-call client overhead does not.
 */
export const ackScript = `${lib}
local err = checkLayout(KEYS[4], ARGV[1])
if err then return err end
local buckets = tonumber(ARGV[1])
local out = {}
for i = 3, #ARGV, 3 do
  local s, token, value = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  local b = bucketOf(s, buckets)
  local bk = ARGV[2] .. b
  local owner = redis.call('HGET', KEYS[3], s)
  local old = redis.call('HGET', bk, s)
  if owner ~= token then
    if not owner and old and stateOf(old) == stateOf(value) then out[#out + 1] = 1 else out[#out + 1] = 0 end
  else
    redis.call('ZREM', KEYS[2], s)
    redis.call('HDEL', KEYS[3], s)
    put(bk, b, s, old, value)
    out[#out + 1] = 1
  end
end
flush(KEYS[1], KEYS[4])
return out`;

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

/**
 * KEYS: bdue, lease, owner, n. ARGV: nowMs, max, buckets, bucketPrefix. Makes expired leases due
 * now (a subject already scheduled again keeps its time). Returns how many leases expired.
 */
export const reapScript = `${lib}
local err = checkLayout(KEYS[4], ARGV[3])
if err then return err end
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
local now = duePrefix(us(ARGV[1]))
for _, s in ipairs(expired) do
  redis.call('ZREM', KEYS[2], s)
  redis.call('HDEL', KEYS[3], s)
  local b = bucketOf(s, tonumber(ARGV[3]))
  local bk = ARGV[4] .. b
  local old = redis.call('HGET', bk, s)
  if old and isNever(old) then put(bk, b, s, old, now .. stateOf(old)) end
end
flush(KEYS[1], KEYS[4])
return #expired`;

/**
 * Offers subjects. KEYS: bloom, bdue, n. ARGV: bits, hashes, buckets, bucketPrefix, then
 * (subject, value) pairs; a value whose due prefix is NEVER records the subject as known but
 * never due (zombies). The Bloom filter answers "certainly new" without touching the bucket; only
 * a "maybe seen" pays the HEXISTS. Bit positions by double hashing over the third and fourth
 * 32-bit words of redis.sha1hex: the first picks the shard (shardOf) and the second the bucket,
 * so within one shard they are constant modulo those counts and would crowd the bits.
 * `bloomPositions` (bloom.ts) is the same function in TypeScript. A known zombie (not scheduled,
 * status bits 01 in the first state byte) offered with a due time is promoted: it takes the
 * offered value (a later fans list showed it above min_followers). Other known subjects are left
 * as they are. Returns the number added (promotions are not new subjects).
 */
export const offerScript = `${lib}
local err = checkLayout(KEYS[3], ARGV[3])
if err then return err end
local m = tonumber(ARGV[1])
local k = tonumber(ARGV[2])
local buckets = tonumber(ARGV[3])
local added = 0
if redis.call('EXISTS', KEYS[1]) == 0 then
  -- Allocated whole and exact once: grown bit by bit, SETBIT over-allocates (up to 2x, +1 MB steps).
  redis.call('SETRANGE', KEYS[1], math.floor((m - 1) / 8), string.char(0))
end
for i = 5, #ARGV, 2 do
  local s = ARGV[i]
  local hex = redis.sha1hex(s)
  local b = tonumber(string.sub(hex, 9, 16), 16) % buckets
  local bk = ARGV[4] .. b
  local h1 = tonumber(string.sub(hex, 17, 24), 16)
  local h2 = tonumber(string.sub(hex, 25, 32), 16)
  local maybe = true
  local pos = {}
  for j = 0, k - 1 do
    local p = (h1 + j * h2) % m
    pos[#pos + 1] = p
    if maybe and redis.call('GETBIT', KEYS[1], p) == 0 then maybe = false end
  end
  if not maybe or redis.call('HEXISTS', bk, s) == 0 then
    for _, p in ipairs(pos) do redis.call('SETBIT', KEYS[1], p, 1) end
    -- HSETNX checks "certainly new" once more: a filter rebuilt or resized must not duplicate.
    if redis.call('HSETNX', bk, s, ARGV[i + 1]) == 1 then
      account(b, false, ARGV[i + 1])
      added = added + 1
    end
  elseif not isNever(ARGV[i + 1]) then
    -- Leased subjects are NEVER too, but never zombies: only a recorded zombie is promoted.
    local old = redis.call('HGET', bk, s)
    if old and isNever(old) and string.byte(old, 8) % 4 == 1 then put(bk, b, s, old, ARGV[i + 1]) end
  end
end
flush(KEYS[2], KEYS[3])
return added`;

/**
 * Makes known subjects that are not leased due at a time (operators, tests: "visit again now").
 * KEYS: bdue, owner, n. ARGV: dueMs, buckets, bucketPrefix, subject… Returns how many moved.
 */
export const rescheduleScript = `${lib}
local err = checkLayout(KEYS[3], ARGV[2])
if err then return err end
local due = duePrefix(us(ARGV[1]))
local n = 0
for i = 4, #ARGV do
  local s = ARGV[i]
  local b = bucketOf(s, tonumber(ARGV[2]))
  local bk = ARGV[3] .. b
  local old = redis.call('HGET', bk, s)
  if old and redis.call('HEXISTS', KEYS[2], s) == 0 then
    put(bk, b, s, old, due .. stateOf(old))
    n = n + 1
  end
end
flush(KEYS[1], KEYS[3])
return n`;

/**
 * Counts subjects due at or before a time, over the buckets whose bound says they may hold some,
 * `count` buckets from `offset` per call (a long scan is split so Redis never blocks for long).
 * KEYS: bdue. ARGV: untilMs, offset, count, bucketPrefix. Returns {due, buckets scanned}.
 */
export const countDueScript = `${lib}
local untilUs = us(ARGV[1])
local bs = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', untilUs, 'LIMIT', tonumber(ARGV[2]), tonumber(ARGV[3]))
local n = 0
for _, b in ipairs(bs) do
  for _, v in ipairs(redis.call('HVALS', ARGV[4] .. b)) do
    if not isNever(v) and dueOf(v) <= untilUs then n = n + 1 end
  end
end
return {n, #bs}`;

/**
 * Estimates the subjects due at or before a time from `count` buckets spread evenly over all the
 * buckets whose bound says they may hold some (ranks in bound order), so the sample is not the
 * earliest buckets only: those are the fuller ones (a bucket with more subjects is likelier to
 * hold an early one), and sampling them overcounted by ~15 % on sparse buckets.
 * KEYS: bdue. ARGV: untilMs, count, bucketPrefix. Returns {due in the sample, buckets sampled, buckets that may hold due}.
 */
export const sampleDueScript = `${lib}
local untilUs = us(ARGV[1])
local m = redis.call('ZCOUNT', KEYS[1], '-inf', untilUs)
local k = math.min(tonumber(ARGV[2]), m)
local n = 0
for i = 0, k - 1 do
  local rank = math.floor((i + 0.5) * m / k)
  local b = redis.call('ZRANGE', KEYS[1], rank, rank)[1]
  if b then
    for _, v in ipairs(redis.call('HVALS', ARGV[3] .. b)) do
      if not isNever(v) and dueOf(v) <= untilUs then n = n + 1 end
    end
  end
end
return {n, k, m}`;
