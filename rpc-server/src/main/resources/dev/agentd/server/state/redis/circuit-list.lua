-- list(prefix, M): every circuit that is not idle, for get_fallback_state.
--   KEYS[1] index set <prefix>circuits; ARGV[1] the circuit key prefix <prefix>circuit:, ARGV[2] M,
--   ARGV[3] lease ms
-- Records are clamped as admit does (openUntil, floor <= now + M, leaseUntil <= now + lease ms,
-- written back).
-- Reads the hashes the index names (a single Redis, not a cluster: those keys are not declared);
-- members whose record expired or is idle are dropped from the index on the way.
-- Returns a flat array: selector, state (1 open, 2 half-open), remaining ms, ...
-- Half-open remaining is the live lease's time left, else 0.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local M, leaseMs = tonumber(ARGV[2]), tonumber(ARGV[3])
local out = {}
for _, sel in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local key = ARGV[1] .. sel
  local h = redis.call('HMGET', key, 'openUntil', 'leaseUntil', 'floor')
  local openUntil, leaseUntil = tonumber(h[1]), tonumber(h[2]) or 0
  if openUntil and leaseUntil > now + leaseMs then
    leaseUntil = now + leaseMs
    redis.call('HSET', key, 'leaseUntil', string.format('%d', leaseUntil))
  end
  if openUntil and openUntil > now + M then
    openUntil = now + M
    redis.call('HSET', key, 'openUntil', string.format('%d', openUntil))
    redis.call('PEXPIRE', key, string.format('%d', math.max(1, math.max(openUntil + M, leaseUntil) - now)))
  end
  if openUntil and (tonumber(h[3]) or 0) > now + M then
    redis.call('HSET', key, 'floor', string.format('%d', now + M))
  end
  if not openUntil or (leaseUntil <= now and now >= openUntil + M) then
    redis.call('DEL', key)
    redis.call('SREM', KEYS[1], sel)
  elseif now < openUntil then
    table.insert(out, sel); table.insert(out, 1); table.insert(out, openUntil - now)
  else
    local left = 0
    if leaseUntil > now then left = leaseUntil - now end
    table.insert(out, sel); table.insert(out, 2); table.insert(out, left)
  end
end
return out
