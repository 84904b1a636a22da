-- Shared by the acquire scripts, which prepend it.
-- Draws the next fencing token for a lock. The token is the larger of the stored counter
-- plus one and the server clock in microseconds, so it keeps increasing when the counter
-- key is lost (a restart without persistence, or its retention ending for a key that is
-- no longer used). It runs inside the acquire script so that no other client can acquire
-- between the lock write and the draw and end up with an older token.
-- Numbers are formatted with %.0f: Lua would print a large number as 1.7e+15.
if redis.replicate_commands then
  redis.replicate_commands()
end
local function next_fence(fence_key, retention_ms)
  local time = redis.call('TIME')
  local micros = tonumber(time[1]) * 1000000 + tonumber(time[2])
  local stored = redis.pcall('GET', fence_key)
  local last = 0
  if type(stored) == 'string' then
    last = tonumber(stored) or 0
  end
  local token = string.format('%.0f', math.max(last + 1, micros))
  redis.call('SET', fence_key, token, 'PX', retention_ms)
  return token
end
