-- Redlock: the second phase of a fencing draw on one node (see RedlockCommands). While the
-- lock key still holds the holder's owner token, store the drawn token as the node's
-- fencing counter, but only if that raises it: a counter is never lowered, so a token
-- written by a later draw (or an operator's force-release) stays.
-- KEYS[1] lock key, KEYS[2] fencing counter key (same hash slot)
-- ARGV[1] owner token, ARGV[2] the drawn token, ARGV[3] counter retention in ms
-- Returns {1} when written; {0} when the key no longer holds the owner token; {2,
-- counter} when the counter is already at least the token; {-2, what the counter key
-- holds} when it is not a fencing counter.
local counter, refusal = counter_while_ours(KEYS[1], KEYS[2], ARGV[1])
if counter == nil then
  return refusal
end
if counter and counter >= tonumber(ARGV[2]) then
  return {2, string.format('%.0f', counter)}
end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return {1}
