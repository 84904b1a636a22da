-- Token protocol, renewal, and the release that keeps the lock for a while ("hold at
-- least"): while the key still holds our token (marked by a waiter or not, see
-- token-acquire.lua), let it expire after the given time. Check and PEXPIRE must be one
-- step for the same reason as in token-release.lua: between them the lease could end and
-- we would extend another client's lock.
-- A release that keeps the key (ARGV[3] names the release channel) announces itself when
-- a waiter marked our token: the waiter slept for the lease it saw, and must learn that
-- the key now ends sooner. It wakes, reads the shorter expiry, and takes the lock when the
-- key ends. Renewals pass no channel and announce nothing.
-- KEYS[1] lock key; ARGV[1] owner token, ARGV[2] ms to keep, ARGV[3] release channel or
-- absent
-- Returns 1 when kept, 2 when kept and announced, 0 when the key holds another value, 3
-- when there is no key (see token-release.lua).
local held = get_any(KEYS[1])
if not held then
  return 3
end
if ARGV[3] and held == ARGV[1] .. '!' then
  redis.call('PUBLISH', ARGV[3], KEYS[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 2
end
if held == ARGV[1] or held == ARGV[1] .. '!' then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
