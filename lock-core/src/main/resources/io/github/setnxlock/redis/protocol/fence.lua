-- Shared by the scripts that draw fencing tokens, which prepend it.
-- Draws the next fencing token for a lock. The token is the larger of the stored counter
-- plus one and the server clock in microseconds, so it keeps increasing when the counter
-- key is lost (a restart without persistence, or its retention ending for a key that is
-- no longer used). It runs in one script with what makes the lock the caller's (the check
-- of token-fence.lua, the acquisition of timestamp-acquire.lua), so that no other client
-- can acquire between the two and end up with an older token.
-- The draw writes the clock's reading and reads the counter in one command (SET ... GET,
-- Redis 6.2): the clock is almost always ahead of the counter, and then that write is the
-- whole draw: one command fewer per draw than reading the counter first
-- (benchmarks/script-cost.sh measures what that saves).
-- Numbers are formatted with %.0f: Lua would print a large number as 1.7e+15.
if redis.replicate_commands then
  redis.replicate_commands()
end
-- What a draw that cannot go on does: the caller's written_key is deleted, then a counter
-- that is not one is written back as found (without an expiry it had: SET ... GET does not
-- say) and described, a key of another type (which SET ... GET leaves as it is) described,
-- and any other error (a refused right) raised.
local function refuse_draw(found, fence_key, written_key)
  if written_key then
    redis.call('DEL', written_key)
  end
  if type(found) == 'string' then
    redis.call('SET', fence_key, found)
    return nil, "'" .. string.sub(found, 1, 64) .. "'"
  end
  if not string.find(found['err'], 'WRONGTYPE', 1, true) then
    error(found['err'])
  end
  return nil, 'a Redis ' .. redis.call('TYPE', fence_key)['ok']
end
-- Returns the next token, now stored in the counter key; or nil and what the counter key
-- holds when no token can follow it: another type, a value that is not a counter (which a
-- client of this library cannot have written), or the largest counter.
-- written_key: a key the caller has just written and that must not outlive a failed draw
-- (the lock key, when the lock was free), or nil. The scripts call Redis with pcall here so
-- that even a refused right deletes it before the error is raised: a failed draw never
-- leaves a lock behind without a token.
local function draw_fence(fence_key, retention_ms, written_key)
  local time = redis.pcall('TIME')
  if time['err'] then
    return refuse_draw(time, fence_key, written_key)
  end
  local micros = tonumber(time[1]) * 1000000 + tonumber(time[2])
  local clock = string.format('%.0f', micros)
  local stored = redis.pcall('SET', fence_key, clock, 'PX', retention_ms, 'GET')
  if not stored then
    return clock
  end
  if type(stored) == 'table' or not is_counter(stored) or tonumber(stored) >= max_token then
    return refuse_draw(stored, fence_key, written_key)
  end
  local last = tonumber(stored)
  if last < micros then
    return clock
  end
  local token = string.format('%.0f', last + 1)
  redis.call('SET', fence_key, token, 'PX', retention_ms)
  return token
end
