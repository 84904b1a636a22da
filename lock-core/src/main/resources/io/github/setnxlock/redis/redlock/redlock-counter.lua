-- Redlock: shared by the two phases of a fencing draw on one node, which prepend it.
-- Whether the lock key still holds the holder's owner token, marked by a waiter or not.
local function is_ours(lock_key, owner_token)
  local held = get_any(lock_key)
  return held == owner_token or held == owner_token .. '!'
end
-- Returns the node's fencing counter as a number, or false without one; or nil and what
-- the counter key holds when it is not a fencing counter that a next token can follow.
local function counter_of(fence_key)
  local stored = get_any(fence_key)
  if type(stored) == 'table' then
    return nil, 'a Redis ' .. redis.call('TYPE', fence_key)['ok']
  end
  if not stored then
    return false
  end
  if not is_counter(stored) or tonumber(stored) >= max_token then
    return nil, "'" .. string.sub(stored, 1, 64) .. "'"
  end
  return tonumber(stored)
end
-- Returns the node's counter (a number, or false without one) while the lock key holds
-- the owner token; or nil and the script's answer when the draw cannot go on here: {0}
-- when the key is not ours, {-2, what the counter key holds} when it is not a counter.
local function counter_while_ours(lock_key, fence_key, owner_token)
  if not is_ours(lock_key, owner_token) then
    return nil, {0}
  end
  local counter, found = counter_of(fence_key)
  if counter == nil then
    return nil, {-2, found}
  end
  return counter
end
