-- Token protocol, release: delete the key only while it still holds our token. GET and
-- DEL must be one step: between a separate check and DEL the lease could end and another
-- client acquire, and we would delete its lock.
-- A token marked by a waiter (our token and '!', see token-acquire.lua) is also ours, and
-- its release is announced on the release channel (message: the lock key) in the same
-- step, so that waiters everywhere wake up on it rather than at the end of the lease. The
-- announcement goes first: nobody can act on it before the script ends, and a PUBLISH the
-- ACL user may not make then fails the release before anything is deleted.
-- A key that is gone is told apart from one that holds another value: a client that sends
-- the release again after a reconnect finds the key its first run deleted, which is no
-- loss.
-- KEYS[1] lock key; ARGV[1] owner token, ARGV[2] release channel
-- Returns 1 when deleted, 2 when deleted and announced, 0 when the key holds another
-- value, 3 when there is no key.
local held = get_any(KEYS[1])
if not held then
  return 3
end
if held == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
if held == ARGV[1] .. '!' then
  redis.call('PUBLISH', ARGV[2], KEYS[1])
  redis.call('DEL', KEYS[1])
  return 2
end
return 0
