-- Shared by the timestamp scripts, which prepend it.
-- Returns "now" in milliseconds: the caller's clock when it passes one (timestamp.clock=local),
-- otherwise the server's TIME, so every client of the registry judges expiry by one clock.
if redis.replicate_commands then
  redis.replicate_commands()
end
local function now_millis(caller_millis)
  if caller_millis ~= '' then
    return tonumber(caller_millis)
  end
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function is_timestamp(value)
  return string.len(value) <= 18 and string.match(value, '^%d+$') ~= nil
end
-- Whether the key, whose value is a timestamp and ours has not expired, still holds our
-- lock. A different value is, by the documented pattern, a client that lost a GETSET race
-- and wrote its timestamp anyway: the lock is still ours. But if a client of this library
-- acquired the key after us (our key was deleted, or lost in a Redis restart), the fencing
-- counter beside it has moved past our token, and the lock is not ours any more.
local function still_ours(current, our_value, our_token, fence_key)
  if current == our_value then
    return true
  end
  local fence = redis.pcall('GET', fence_key)
  if type(fence) ~= 'string' or tonumber(fence) == nil then
    return true
  end
  return tonumber(fence) <= tonumber(our_token)
end
