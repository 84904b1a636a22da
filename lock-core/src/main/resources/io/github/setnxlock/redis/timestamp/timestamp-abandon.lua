-- Timestamp protocol, undo an acquisition whose answer the client never got: delete the
-- lock key only while the owner key says this owner's acquisition wrote the value it still
-- holds (see timestamp-acquire.lua). A takeover or a later acquisition writes another value
-- or owner, and is left alone. Announced as a release is, before the delete.
-- KEYS[1] lock key, KEYS[2] owner key (same hash slot); ARGV[1] owner token, ARGV[2]
-- release channel
-- Returns 1 when deleted, 0 when the acquisition had not written the key or no longer holds it.
local owner_token, owned_value = owner_of(KEYS[2])
if owner_token ~= ARGV[1] or get_any(KEYS[1]) ~= owned_value then
  return 0
end
redis.call('PUBLISH', ARGV[2], KEYS[1])
redis.call('DEL', KEYS[1])
del_owner(KEYS[2])
return 1
