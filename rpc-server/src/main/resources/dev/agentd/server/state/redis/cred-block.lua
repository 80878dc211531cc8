-- block(credential, duration): until = max(existing, now + duration), never shortening a block.
--   KEYS[1] <prefix>cred:<provider>:<keyed hash>  (a string: the epoch ms the block ends; TTL to then)
--   ARGV[1] duration ms
-- Returns until - now.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local existing = tonumber(redis.call('GET', KEYS[1])) or 0
local untilMs = math.max(existing, now + tonumber(ARGV[1]))
if untilMs > now then
  redis.call('SET', KEYS[1], string.format('%d', untilMs), 'PX', string.format('%d', untilMs - now))
end
return math.max(0, untilMs - now)
