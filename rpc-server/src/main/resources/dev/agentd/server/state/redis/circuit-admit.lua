-- admit(selector, owner): whether owner (a session) may send now (FALLBACK §6).
--   KEYS[1] circuit hash, KEYS[2] index set
--   ARGV[1] selector, ARGV[2] owner, ARGV[3] M (cap ms), ARGV[4] lease ms
-- No record, or an idle one (no live lease, now >= openUntil + M) -> {0}: closed.
-- now < openUntil -> {1, openUntil - now}: open.
-- A live lease (leaseUntil > now) of another owner -> {1, leaseUntil - now}: open.
-- Otherwise the lease is granted or kept for owner, lasting until now + lease ms (an unreleased
-- lease of a crashed holder expires) -> {2, generation}: this owner sends the one probe.
-- The key TTL is lengthened to cover the lease.
-- Clamp first (CircuitRecord.clamped): openUntil and floor at most now + M, leaseUntil at most
-- now + lease ms, written back when lowered, so a record from a server clock that ran ahead (or
-- from any other client) keeps the model skipped for at most M.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local M, leaseMs = tonumber(ARGV[3]), tonumber(ARGV[4])
local h = redis.call('HMGET', KEYS[1], 'openUntil', 'gen', 'leaseOwner', 'leaseUntil', 'floor')
if not h[1] then
  return {0}
end
local openUntil, gen, leaseUntil = tonumber(h[1]), tonumber(h[2]) or 0, tonumber(h[4]) or 0
if leaseUntil > now + leaseMs then
  leaseUntil = now + leaseMs
  redis.call('HSET', KEYS[1], 'leaseUntil', string.format('%d', leaseUntil))
end
if openUntil > now + M then
  openUntil = now + M
  redis.call('HSET', KEYS[1], 'openUntil', string.format('%d', openUntil))
  redis.call('PEXPIRE', KEYS[1], string.format('%d', math.max(1, math.max(openUntil + M, leaseUntil) - now)))
end
if (tonumber(h[5]) or 0) > now + M then
  redis.call('HSET', KEYS[1], 'floor', string.format('%d', now + M))
end
if leaseUntil <= now and now >= openUntil + M then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[1])
  return {0}
end
if now < openUntil then
  return {1, openUntil - now}
end
if h[3] and leaseUntil > now and h[3] ~= ARGV[2] then
  return {1, leaseUntil - now}
end
local newLease = now + leaseMs
redis.call('HSET', KEYS[1], 'leaseOwner', ARGV[2], 'leaseUntil', string.format('%d', newLease))
redis.call('PEXPIRE', KEYS[1], string.format('%d', math.max(1, math.max(openUntil + M, newLease) - now)))
return {2, gen}
