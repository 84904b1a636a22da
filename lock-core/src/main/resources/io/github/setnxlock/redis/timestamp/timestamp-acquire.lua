-- Timestamp protocol, acquire, with the documented expire-takeover folded in.
-- The value is the Unix time (in the configured unit) at which the lock stops being valid:
-- now + lease + 1, as the SETNX documentation writes it. When the key holds an expired
-- timestamp we take it over here, in the same step as reading it: that is the documented
-- GETSET whose old value is still expired, without the flaw that a losing GETSET rewrites
-- the winner's expiry. The fencing draw happens in the same step too (see fence.lua), and
-- only when the lock is taken: after a SET NX that wins, before a takeover's SET.
-- The acquisition also writes the owner key: its owner token and the value, with the lock
-- key's expiry, so that an acquisition whose answer the client never got (a command
-- timeout, a reset connection) can still be undone by its owner (timestamp-abandon.lua):
-- the value, computed here from the clock, is not known to the client before the answer.
-- A timestamp that the owner key says this very acquisition wrote is the caller's: the
-- client sent the script again after a reconnect, and the first run took the lock, whose
-- answer (and fencing token) never reached the caller. A new token is drawn, which is
-- higher and still inside the caller's hold; the lock keeps the first run's expiry, and
-- the validity answered counts from now.
-- KEYS[1] lock key, KEYS[2] fencing counter key, KEYS[3] owner key (same hash slot)
-- ARGV[1] ms per unit (1000 or 1), ARGV[2] lease in whole units, ARGV[3] caller clock in
-- ms or '' for the server clock, ARGV[4] how long the key outlives its expiry in ms,
-- ARGV[5] counter retention in ms, ARGV[6] owner token
-- Returns {1, token, value, validity ms} when acquired from a free key;
-- {2, token, value, validity ms, previous value} when an expired timestamp was taken over;
-- {0, ms until the holder's timestamp expires, 1 when the holder is a registry's (the owner
-- key names the value, so its release will be announced) else 0} when held;
-- {-1, type} when the key is not a string; {-2, value} when the value is not a timestamp;
-- {-3, what the counter key holds} when it is not a fencing counter.
local unit = tonumber(ARGV[1])
local now_ms = now_millis(ARGV[3])
local now = math.floor(now_ms / unit)
local expiry = now + tonumber(ARGV[2]) + 1
local value = string.format('%.0f', expiry)
local validity_ms = expiry * unit - now_ms
local ttl_ms = validity_ms + tonumber(ARGV[4])
if redis.call('SET', KEYS[1], value, 'NX', 'PX', ttl_ms) then
  local token, counter = draw_fence(KEYS[2], ARGV[5], KEYS[1])
  if not token then
    return {-3, counter}
  end
  set_owner(KEYS[3], ARGV[6], value, ttl_ms)
  return {1, token, value, validity_ms}
end
local current = get_any(KEYS[1])
if type(current) ~= 'string' then
  return {-1, redis.call('TYPE', KEYS[1])['ok']}
end
if not is_timestamp(current) then
  return {-2, string.sub(current, 1, 64)}
end
local held_until = tonumber(current)
if held_until > now then
  local owner_token, owned_value = owner_of(KEYS[3])
  if owner_token == ARGV[6] and owned_value == current then
    local token, counter = draw_fence(KEYS[2], ARGV[5], nil)
    if not token then
      return {-3, counter}
    end
    return {1, token, current, held_until * unit - now_ms}
  end
  local announces = 0
  if owned_value == current then
    announces = 1
  end
  return {0, held_until * unit - now_ms, announces}
end
local token, counter = draw_fence(KEYS[2], ARGV[5], nil)
if not token then
  return {-3, counter}
end
redis.call('SET', KEYS[1], value, 'PX', ttl_ms)
set_owner(KEYS[3], ARGV[6], value, ttl_ms)
return {2, token, value, validity_ms, current}
