-- Token protocol, the second step of an acquisition, sent only when the plain
-- SET key token NX PX lease of the first step found the key taken (and by the replication
-- guard, which needs the write and its WAIT on one connection, as the only step).
-- It takes the key if it has become free since (SET NX PX); otherwise a contender that
-- will wait for the release marks the holder's token by appending '!' (only a token of
-- this library's own form, hex:hex after the holder's name and a ';' or alone, and keeping
-- its expiry): the release then announces
-- itself, and one that finds no mark deletes the key without a message nobody waits for.
-- Marking and the release each happen in one step, so a release either finds the mark or
-- comes before the mark, which then finds the key free and takes it.
-- A holder that is not of this library (another client's token, which is not marked) will
-- announce nothing: the reply says so, and the caller re-checks on a short back-off
-- instead of sleeping for that holder's whole lease.
-- A key that holds the caller's own owner token (marked by a waiter or not) is the
-- caller's: the client sent this acquisition, or the SET before it, again after a
-- reconnect, and the first run took the key. Its expiry is set anew, since the caller
-- counts its lease from when it sent this script, after that first run.
-- No fencing token is drawn here: token-fence.lua draws it when the holder asks.
-- KEYS[1] lock key
-- ARGV[1] owner token, ARGV[2] lease in ms, ARGV[3] '1' when the caller waits for the
-- release if the lock is held, '0' when it does not, '2' when it only marks the holder
-- and leaves a free key to others (a registry letting a waiter elsewhere go first)
-- Returns {1} when acquired; {0, holder's PTTL in ms (-1: no expiry), 1 when the holder's
-- token is marked (its release will be announced) else 0} when held; {2} when the key is
-- free and was left so; {-1, type} when the key holds a type that is not a string.
if ARGV[3] ~= '2' and redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return {1}
end
local held = get_any(KEYS[1])
if not held then
  return {2}
end
if type(held) == 'table' then
  return {-1, redis.call('TYPE', KEYS[1])['ok']}
end
if ARGV[1] ~= '' and (held == ARGV[1] or held == ARGV[1] .. '!') then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1}
end
-- This library's tokens: hex:hex, with the holder's name before a ';' unless turned off.
local function ours(value)
  return string.match(value, '^%x+:%x+$') or string.match(value, '^[%w%._%-@/]+;%x+:%x+$')
end
local marked = 0
if string.sub(held, -1) == '!' then
  if ours(string.sub(held, 1, -2)) then
    marked = 1
  end
elseif ARGV[3] ~= '0' and ours(held) then
  redis.call('SET', KEYS[1], held .. '!', 'KEEPTTL')
  marked = 1
end
return {0, redis.call('PTTL', KEYS[1]), marked}
