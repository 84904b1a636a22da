-- Redlock: the first phase of a fencing draw on one node (see RedlockCommands). While the
-- lock key still holds the holder's owner token, answer the larger of the node's fencing
-- counter and its clock in microseconds; nothing is written. The clock stands in for a
-- counter the node has lost (a restart without persistence, an ended retention), as in
-- fence.lua.
-- KEYS[1] lock key, KEYS[2] fencing counter key (same hash slot)
-- ARGV[1] owner token
-- Returns {1, value} while ours; {0} when the key no longer holds the owner token; {-2,
-- what the counter key holds} when it is not a fencing counter.
local counter, refusal = counter_while_ours(KEYS[1], KEYS[2], ARGV[1])
if counter == nil then
  return refusal
end
local time = redis.call('TIME')
local micros = tonumber(time[1]) * 1000000 + tonumber(time[2])
if counter and counter > micros then
  micros = counter
end
return {1, string.format('%.0f', micros)}
