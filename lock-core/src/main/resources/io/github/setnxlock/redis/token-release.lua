-- Token protocol, release: delete the key only while it still holds our token. GET and
-- DEL must be one step: between a separate check and DEL the lease could end and another
-- client acquire, and we would delete its lock.
-- The release is announced on the release channel (message: the lock key) in the same step,
-- so waiters everywhere wake up on it rather than polling. The announcement goes first:
-- nobody can act on it before the script ends, and a PUBLISH the ACL user may not make then
-- fails the release before anything is deleted.
-- KEYS[1] lock key; ARGV[1] owner token, ARGV[2] release channel
-- Returns 1 when deleted, 0 when the key no longer held our token.
if get_any(KEYS[1]) == ARGV[1] then
  redis.call('PUBLISH', ARGV[2], KEYS[1])
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
