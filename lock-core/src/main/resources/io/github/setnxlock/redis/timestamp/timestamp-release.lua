-- Timestamp protocol, release: delete the key only while our own timestamp has not expired
-- (the documentation's rule: never DEL a lock whose timeout passed, someone else may hold
-- it now), and only if the key was not taken over. Check and DEL must be one step for the
-- same reason as in token-release.lua.
-- A client of the documented pattern that loses a GETSET race still overwrites the value
-- with its own timestamp; the documentation says the winner keeps the lock all the same.
-- Such a client only writes after it read an expired value, so while our timestamp is
-- still valid a different timestamp in the key is that rewrite, and the lock is still ours,
-- unless the fencing counter shows a later acquisition (see still_ours).
-- The owner key (see timestamp-acquire.lua) goes with the lock key.
-- KEYS[1] lock key, KEYS[2] fencing counter key, KEYS[3] owner key; ARGV[1] our value, ARGV[2] ms per unit,
-- ARGV[3] caller clock in ms or '', ARGV[4] our fencing token, ARGV[5] release channel
-- The release is announced as in token-release.lua, before the delete for the same reason.
-- A key that is gone is told apart, as in token-release.lua: a release sent again after a
-- reconnect finds the key its first run deleted.
-- Returns 1 when deleted; 2 when deleted after a losing GETSET had rewritten the value;
-- 0 when the key is not a timestamp or not ours; 3 when there is no key; -1 when our
-- timestamp had expired.
local current = get_any(KEYS[1])
if not current then
  return 3
end
if type(current) ~= 'string' or not is_timestamp(current) then
  return 0
end
local now = math.floor(now_millis(ARGV[3]) / tonumber(ARGV[2]))
if tonumber(ARGV[1]) <= now then
  return -1
end
if not still_ours(current, ARGV[1], ARGV[4], KEYS[2]) then
  return 0
end
redis.call('PUBLISH', ARGV[5], KEYS[1])
redis.call('DEL', KEYS[1])
del_owner(KEYS[3])
if current == ARGV[1] then
  return 1
end
return 2
