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
