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
-- and wrote its timestamp anyway: the lock is still ours; and an equal value may be another
-- holder's that happens to end in the same second. So the value decides nothing: our
-- fencing counter beside the key does. A client of this library that acquired after us has
-- moved it past our token, and a Redis that lost our key (a restart without persistence)
-- has lost the counter too, which our acquisition wrote and our renewals keep alive; in
-- either case the key is another holder's, even one that follows the documented pattern.
local function still_ours(current, our_value, our_token, fence_key)
  local fence = get_any(fence_key)
  if type(fence) ~= 'string' or not is_counter(fence) then
    return false
  end
  return tonumber(fence) <= tonumber(our_token)
end
