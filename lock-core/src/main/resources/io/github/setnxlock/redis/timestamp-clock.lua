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
