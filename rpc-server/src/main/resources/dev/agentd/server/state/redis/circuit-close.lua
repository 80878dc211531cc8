-- close(selector): a success; the record goes, and with it the doubling.
--   KEYS[1] circuit hash, KEYS[2] index set; ARGV[1] selector
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
return 1
