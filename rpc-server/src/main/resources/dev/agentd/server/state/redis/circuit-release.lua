-- release(selector, owner, generation): gives back a probe lease without a verdict, only when
-- owner AND generation match the current lease (a stale token never ends a later lease).
--   KEYS[1] circuit hash, KEYS[2] index set
--   ARGV[1] selector, ARGV[2] owner, ARGV[3] generation
-- The key TTL shrinks back to openUntil + M - now (M as the record's opening kept it); an already
-- idle record is deleted.
-- Returns 1 when released, else 0.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'openUntil', 'gen', 'leaseOwner', 'leaseUntil', 'max')
if not h[1] or h[3] ~= ARGV[2] or h[2] ~= ARGV[3] then
  return 0
end
redis.call('HDEL', KEYS[1], 'leaseOwner', 'leaseUntil')
local ttl = tonumber(h[1]) + (tonumber(h[5]) or 0) - now
if ttl <= 0 then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[2], ARGV[1])
else
  redis.call('PEXPIRE', KEYS[1], string.format('%d', ttl))
end
return 1
