-- Token protocol, renewal, and the release that keeps the lock for a while ("hold at
-- least"): while the key still holds our token (marked by a waiter or not, see
-- token-acquire.lua), let it expire after the given time. Check and PEXPIRE must be one
-- step for the same reason as in token-release.lua: between them the lease could end and
-- we would extend another client's lock.
-- KEYS[1] lock key; ARGV[1] owner token, ARGV[2] ms to keep
-- Returns 1 when kept, 0 when the key no longer held our token.
local held = get_any(KEYS[1])
if held == ARGV[1] or held == ARGV[1] .. '!' then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
