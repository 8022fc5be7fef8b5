/**
 * Records subjects that must never be visited (e.g. zombie users found in a fans list): the same
 * Bloom + exact-state dedup as the offer script, but no entry in the due ZSET, so a later offer of
 * the same subject finds it known and leaves it unscheduled.
 * KEYS: bloom, state. ARGV: bits, hashes, then (subject, stateJson) pairs. Returns how many were new.
 */
export const recordScript = `
local m = tonumber(ARGV[1])
local k = tonumber(ARGV[2])
local added = 0
for i = 3, #ARGV, 2 do
  local s = ARGV[i]
  local hex = redis.sha1hex(s)
  local h1 = tonumber(string.sub(hex, 1, 8), 16)
  local h2 = tonumber(string.sub(hex, 9, 16), 16)
  for j = 0, k - 1 do redis.call('SETBIT', KEYS[1], (h1 + j * h2) % m, 1) end
  if redis.call('HSETNX', KEYS[2], s, ARGV[i + 1]) == 1 then added = added + 1 end
end
return added`;
