-- blockedFor(credential): how much longer the credential is blocked, 0 when free.
--   KEYS[1] <prefix>cred:<provider>:<keyed hash>
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local untilMs = tonumber(redis.call('GET', KEYS[1])) or 0
return math.max(0, untilMs - now)
