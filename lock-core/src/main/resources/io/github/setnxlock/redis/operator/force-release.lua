-- Both protocols, force release by an operator: delete the lock key whoever holds it, draw a
-- fencing token past the holder's (so a resource that checks tokens refuses the holder's
-- late writes), and announce the release. One step, so no acquisition slips in between the
-- delete and the draw with a token that the draw would then not exceed.
-- The timestamp protocol's owner key goes too (see read.lua); the token protocol has none.
-- KEYS[1] lock key, KEYS[2] fencing counter key, KEYS[3] owner key (timestamp protocol only);
-- ARGV[1] counter retention in ms,
-- ARGV[2] release channel
-- Returns {deleted (0 or 1), the new fencing token}; {-1, what the counter key holds} when
-- it is not a fencing counter, and then the lock key is left as it was (see fence.lua for the
-- counter key).
local token, counter = draw_fence(KEYS[2], ARGV[1], nil)
if not token then
  return {-1, counter}
end
local deleted = redis.call('DEL', KEYS[1])
if KEYS[3] then
  del_owner(KEYS[3])
end
if deleted == 1 then
  redis.call('PUBLISH', ARGV[2], KEYS[1])
end
return {deleted, token}
