-- Token protocol: draw the fencing token of a hold, on the holder's first request for it
-- (see fence.lua for the draw). The draw happens only while the lock key still holds the
-- holder's owner token, marked by a waiter or not, in one step with that check: holds of
-- a key never overlap in Redis, so tokens drawn inside them follow the order of the holds.
-- A hold that never asks draws nothing, and its acquisition stays a plain SET NX PX.
-- KEYS[1] lock key, KEYS[2] fencing counter key (same hash slot)
-- ARGV[1] owner token, ARGV[2] counter retention in ms
-- Returns {1, token} when drawn; {0} when the key no longer holds the owner token; {-2,
-- what the counter key holds} when it is not a fencing counter.
local held = get_any(KEYS[1])
if held ~= ARGV[1] and held ~= ARGV[1] .. '!' then
  return {0}
end
local token, counter = draw_fence(KEYS[2], ARGV[2], nil)
if not token then
  return {-2, counter}
end
return {1, token}
