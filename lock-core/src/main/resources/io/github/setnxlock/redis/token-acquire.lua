-- Token protocol, acquire: SET NX PX and the fencing draw in one step (see fence.lua).
-- KEYS[1] lock key, KEYS[2] fencing counter key (same hash slot)
-- ARGV[1] owner token, ARGV[2] lease in ms, ARGV[3] counter retention in ms
-- Returns {1, token} when acquired; {0, holder's PTTL in ms (-1: no expiry)} when held;
-- {-1, type} when the key holds a type that is not a string; {-2, what the counter key
-- holds} when it is not a fencing counter.
local token, counter = draw_fence(KEYS[2])
if not token then
  return {-2, counter}
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  write_fence(KEYS[2], token, ARGV[3])
  return {1, token}
end
local key_type = redis.call('TYPE', KEYS[1])['ok']
if key_type ~= 'string' then
  return {-1, key_type}
end
return {0, redis.call('PTTL', KEYS[1])}
