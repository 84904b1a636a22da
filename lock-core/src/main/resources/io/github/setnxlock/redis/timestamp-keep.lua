-- Timestamp protocol, release that keeps the lock for a while ("hold at least"): while our
-- own timestamp has not expired, write a new one that ends after the given time, rounded
-- up to a whole unit, instead of deleting the key. Ownership is judged as in
-- timestamp-release.lua, and read and write are one step for the same reason.
-- KEYS[1] lock key; ARGV[1] our value, ARGV[2] ms per unit, ARGV[3] caller clock in ms or '',
-- ARGV[4] ms to keep, ARGV[5] how long the key outlives its timestamp in ms
-- Returns 1 when kept; 0 when the key is gone or is not a timestamp; -1 when our timestamp
-- had expired.
local current = redis.pcall('GET', KEYS[1])
if type(current) ~= 'string' or not is_timestamp(current) then
  return 0
end
local unit = tonumber(ARGV[2])
local now_ms = now_millis(ARGV[3])
if tonumber(ARGV[1]) <= math.floor(now_ms / unit) then
  return -1
end
local kept_until = math.ceil((now_ms + tonumber(ARGV[4])) / unit)
redis.call('SET', KEYS[1], string.format('%.0f', kept_until), 'PX', kept_until * unit - now_ms + tonumber(ARGV[5]))
return 1
