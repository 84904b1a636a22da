-- Shared by every script, which prepend it.
-- GET that answers a key of another type with its WRONGTYPE error, as redis.pcall does, for
-- the script to report the key as not a lock or not a counter; any other error (a command
-- or key the ACL user may not use, say) still fails the script, so that it is reported as
-- what it is rather than taken for a free key or a lost lock. It is raised as a string,
-- which every Redis version passes on with its message.
local function get_any(key)
  local value = redis.pcall('GET', key)
  if type(value) == 'table' and value['err'] and not string.find(value['err'], 'WRONGTYPE', 1, true) then
    error(value['err'])
  end
  return value
end
-- Whether a string is a fencing counter: a whole number below 2^53, up to which Lua's
-- numbers (doubles) count by one exactly.
local max_token = 9007199254740991
local function is_counter(value)
  return string.len(value) <= 16 and string.match(value, '^%d+$') ~= nil and tonumber(value) <= max_token
end
-- The timestamp protocol's owner key ('<owner token> <value>', see timestamp-acquire.lua)
-- helps: it undoes acquisitions whose answer never came and tells waiters that a holder
-- announces. It is never needed for the lock itself, so whatever is found there (another
-- type, a value of another form) counts as no owner key, and a failed write of it never
-- fails the lock operation: every access to it goes through pcall.
local function owner_of(key)
  local owner = redis.pcall('GET', key)
  if type(owner) ~= 'string' then
    return nil, nil
  end
  local sep = string.find(owner, ' ', 1, true)
  if not sep then
    return nil, nil
  end
  return string.sub(owner, 1, sep - 1), string.sub(owner, sep + 1)
end
local function set_owner(key, token, value, ttl_ms)
  redis.pcall('SET', key, token .. ' ' .. value, 'PX', ttl_ms)
end
local function del_owner(key)
  redis.pcall('DEL', key)
end
