-- Token protocol, release: delete the key only while it still holds our token. GET and
-- DEL must be one step: between a separate check and DEL the lease could end and another
-- client acquire, and we would delete its lock.
-- The release is announced on the release channel (message: the lock key) in the same step,
-- so waiters everywhere wake up on it rather than polling.
-- KEYS[1] lock key; ARGV[1] owner token, ARGV[2] release channel
-- Returns 1 when deleted, 0 when the key no longer held our token.
if redis.pcall('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', ARGV[2], KEYS[1])
  return 1
end
return 0
