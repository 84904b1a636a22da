-- Timestamp protocol, compare-and-extend: while our own timestamp has not expired, write a
-- new one that ends after the given time, rounded up to a whole unit. Renewals use it with
-- the lease, and a release that keeps the lock for a while ("hold at least") with the time
-- to keep. Ownership is judged as in timestamp-release.lua, and read and write are one step
-- for the same reason: between them our timestamp could expire and another client take the
-- lock, whose expiry we would then move.
-- The owner key (see timestamp-acquire.lua) follows the new value, so that waiters still
-- know the holder announces its release.
-- KEYS[1] lock key, KEYS[2] fencing counter key, KEYS[3] owner key; ARGV[1] our value, ARGV[2] ms per unit,
-- ARGV[3] caller clock in ms or '', ARGV[4] ms to keep, ARGV[5] how long the key outlives its
-- timestamp in ms, ARGV[6] our fencing token, ARGV[7] how long the fencing counter is kept in
-- ms (renewed with the lock, see still_ours), ARGV[8] the release channel, for a release
-- that keeps the key, or absent
-- A release that keeps the key announces itself, as a release does (timestamp-release.lua),
-- before it writes: waiters slept for the expiry they read, and must learn that the key
-- now ends sooner. Renewals pass no channel and announce nothing.
-- Returns {1, new value, ms until it expires} when extended; {2, ...} when extended and
-- announced; {0} when the key is not a timestamp or not ours; {3} when there is no key;
-- {-1} when our timestamp had expired.
local current = get_any(KEYS[1])
if not current then
  return {3}
end
if type(current) ~= 'string' or not is_timestamp(current) then
  return {0}
end
local unit = tonumber(ARGV[2])
local now_ms = now_millis(ARGV[3])
if tonumber(ARGV[1]) <= math.floor(now_ms / unit) then
  return {-1}
end
if not still_ours(current, ARGV[1], ARGV[6], KEYS[2]) then
  return {0}
end
local kept_until = math.ceil((now_ms + tonumber(ARGV[4])) / unit)
local value = string.format('%.0f', kept_until)
local validity_ms = kept_until * unit - now_ms
if ARGV[8] then
  redis.call('PUBLISH', ARGV[8], KEYS[1])
end
redis.call('SET', KEYS[1], value, 'PX', validity_ms + tonumber(ARGV[5]))
redis.call('PEXPIRE', KEYS[2], validity_ms + tonumber(ARGV[7]))
-- Our own value, which still_ours accepted, also after a documented client's losing
-- GETSET rewrote the key's.
local owner_token, owned_value = owner_of(KEYS[3])
if owned_value == ARGV[1] then
  set_owner(KEYS[3], owner_token, value, validity_ms + tonumber(ARGV[5]))
end
if ARGV[8] then
  return {2, value, validity_ms}
end
return {1, value, validity_ms}
