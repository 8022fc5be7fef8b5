/**
 * Takes one request from a pool of identities (tokens, cookies), each with a quota per fixed window
 * (e.g. 150 per hour) and an optional bench (after a 418/403). All state lives in one hash, so the
 * script touches one key (one slot on a Redis Cluster) and holds across every worker.
 * Fields: `<i>:w` window number, `<i>:n` requests taken in it, `<i>:b` benched until (ms), `rr`
 * the round-robin cursor that spreads load over the pool.
 * KEYS: pool hash. ARGV: nowMs, windowMs, limit, poolSize, then optionally the order in which to
 * try the identities (a proxy pool's health ranking); without one, round robin.
 * Returns {1, i}: identity i may send now; {0, waitMs}: none may, the earliest frees in waitMs.
 */
export const takeTokenScript = `
local now = tonumber(ARGV[1])
local win = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local size = tonumber(ARGV[4])
local w = math.floor(now / win)
local ordered = #ARGV > 4
local start = 0
if not ordered then start = redis.call('HINCRBY', KEYS[1], 'rr', 1) end
local best = -1
for j = 0, size - 1 do
  local i
  if ordered then i = tonumber(ARGV[5 + j]) else i = (start + j) % size end
  local wait
  local benched = tonumber(redis.call('HGET', KEYS[1], i .. ':b') or '0')
  if benched > now then
    wait = benched - now
  else
    local n = 0
    if tonumber(redis.call('HGET', KEYS[1], i .. ':w') or '-1') == w then n = tonumber(redis.call('HGET', KEYS[1], i .. ':n') or '0') end
    if n < limit then
      redis.call('HSET', KEYS[1], i .. ':w', w, i .. ':n', n + 1)
      redis.call('PEXPIRE', KEYS[1], win * 2 + 86400000)
      return {1, i}
    end
    wait = (w + 1) * win - now
  end
  if best < 0 or wait < best then best = wait end
end
return {0, best}`;

/** KEYS: pool hash. ARGV: identity index, benchedUntilMs. Only ever extends a bench. */
export const benchTokenScript = `
local f = ARGV[1] .. ':b'
if tonumber(redis.call('HGET', KEYS[1], f) or '0') < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], f, ARGV[2]) end
return 1`;
