-- Token protocol, acquire: SET NX PX and the fencing draw in one step (see fence.lua); the
-- draw follows a successful SET NX only, so an attempt on a held lock leaves the counter be.
-- A contender that will wait for the release marks the holder's token by appending '!'
-- (only a token of this library's own form, hex:hex, and keeping its expiry): the release
-- then announces itself, and one that finds no mark deletes the key without a message
-- nobody waits for. Marking and the release each happen in one step, so a release either
-- finds the mark or comes before the attempt, which then finds the key free.
-- A holder that is not of this library (another client's token, which is not marked) will
-- announce nothing: the reply says so, and the caller re-checks on a short back-off
-- instead of sleeping for that holder's whole lease.
-- KEYS[1] lock key, KEYS[2] fencing counter key (same hash slot)
-- ARGV[1] owner token, ARGV[2] lease in ms, ARGV[3] counter retention in ms, ARGV[4] '1'
-- when the caller waits for the release if the lock is held, else '0'
-- Returns {1, token} when acquired; {0, holder's PTTL in ms (-1: no expiry), 1 when the
-- holder's token is marked (its release will be announced) else 0} when held;
-- {-1, type} when the key holds a type that is not a string; {-2, what the counter key
-- holds} when it is not a fencing counter.
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local token, counter = draw_fence(KEYS[2], ARGV[3], KEYS[1])
  if not token then
    return {-2, counter}
  end
  return {1, token}
end
local held = get_any(KEYS[1])
if type(held) == 'table' then
  return {-1, redis.call('TYPE', KEYS[1])['ok']}
end
local marked = 0
if ARGV[4] == '1' and string.match(held, '^%x+:%x+$') then
  redis.call('SET', KEYS[1], held .. '!', 'KEEPTTL')
  marked = 1
elseif string.match(held, '^%x+:%x+!$') then
  marked = 1
end
return {0, redis.call('PTTL', KEYS[1]), marked}
