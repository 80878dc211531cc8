-- open(selector, C, M, retryAfter): opens a circuit or re-opens it with a doubled cooldown
-- (FALLBACK §6). Time is the server's TIME in epoch ms, so machines with skewed clocks agree.
--   KEYS[1] circuit hash  <prefix>circuit:<selector>
--   KEYS[2] generation counter  <prefix>generation
--   KEYS[3] index set of selectors with a record  <prefix>circuits
--   ARGV[1] selector, ARGV[2] C (first cooldown ms), ARGV[3] M (cap ms), ARGV[4] Retry-After ms (0: none)
-- Arithmetic:
--   sweep: a record with no live lease and now >= openUntil + M is idle and counts as none
--   n = prev.opens + 1;  cool = min(C * 2^(n-1), M)
--   hinted = now + retryAfter if retryAfter > 0 else 0
--   floor = max(hinted, min(prev.floor, now + M) if prev.floor > now else 0)   (clamped on read, as
--   CircuitRecord.clamped does: a stored floor never counts past now + M)
--   openUntil = max(now + cool, min(floor, now + M))   (Retry-After lengthens, never past now + M)
--   the probe lease ends; the generation is a new value of the global counter; M is kept (release
--   needs it)
--   key TTL = openUntil + M - now (the record is idle then)
-- Returns openUntil - now.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local C, M, ra = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local h = redis.call('HMGET', KEYS[1], 'openUntil', 'opens', 'floor', 'leaseUntil')
local openUntil, opens, floor = tonumber(h[1]) or 0, tonumber(h[2]) or 0, tonumber(h[3]) or 0
local leaseUntil = tonumber(h[4]) or 0
if leaseUntil <= now and now >= openUntil + M then
  opens, floor = 0, 0
end
local n = opens + 1
local cool = math.min(C * 2 ^ math.min(n - 1, 62), M)
local hinted = 0
if ra > 0 then hinted = now + ra end
local prevFloor = 0
if floor > now then prevFloor = math.min(floor, now + M) end
local newFloor = math.max(hinted, prevFloor)
local untilMs = math.max(now + cool, math.min(newFloor, now + M))
local gen = redis.call('INCR', KEYS[2])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'openUntil', string.format('%d', untilMs), 'opens', string.format('%d', n),
  'floor', string.format('%d', newFloor), 'gen', string.format('%d', gen), 'max', string.format('%d', M))
redis.call('PEXPIRE', KEYS[1], string.format('%d', math.max(1, untilMs + M - now)))
redis.call('SADD', KEYS[3], ARGV[1])
return untilMs - now
