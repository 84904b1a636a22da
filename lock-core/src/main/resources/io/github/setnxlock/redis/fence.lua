-- Shared by the acquire scripts, which prepend it.
-- Draws the next fencing token for a lock. The token is the larger of the stored counter
-- plus one and the server clock in microseconds, so it keeps increasing when the counter
-- key is lost (a restart without persistence, or its retention ending for a key that is
-- no longer used). It runs inside the acquire script so that no other client can acquire
-- between the lock write and the draw and end up with an older token.
-- The counter is read and the token drawn before the script writes anything, so that a
-- counter key holding something else is reported, not overwritten, and a read the ACL user
-- may not make fails the script before the lock key is written.
-- Numbers are formatted with %.0f: Lua would print a large number as 1.7e+15.
if redis.replicate_commands then
  redis.replicate_commands()
end
-- Returns the next token, or nil and what the counter key holds when no token can follow
-- it: another type, or a value that is not a counter (which a client of this library
-- cannot have written), or the largest one.
local function draw_fence(fence_key)
  local stored = get_any(fence_key)
  local last = 0
  if type(stored) == 'table' then
    return nil, 'a Redis ' .. redis.call('TYPE', fence_key)['ok']
  end
  if stored then
    if not is_counter(stored) or tonumber(stored) >= max_token then
      return nil, "'" .. string.sub(stored, 1, 64) .. "'"
    end
    last = tonumber(stored)
  end
  local time = redis.call('TIME')
  local micros = tonumber(time[1]) * 1000000 + tonumber(time[2])
  return string.format('%.0f', math.max(last + 1, micros))
end
local function write_fence(fence_key, token, retention_ms)
  redis.call('SET', fence_key, token, 'PX', retention_ms)
end
