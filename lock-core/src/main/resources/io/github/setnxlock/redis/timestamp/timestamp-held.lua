-- Timestamp protocol: whether the key holds a timestamp that has not expired. A script so
-- that the read and the clock are taken together.
-- KEYS[1] lock key; ARGV[1] ms per unit, ARGV[2] caller clock in ms or ''
-- Returns {1} when held, {0} when free or expired; {-1, type} or {-2, value} as the acquire script.
local current = get_any(KEYS[1])
if type(current) ~= 'string' then
  if current then
    return {-1, redis.call('TYPE', KEYS[1])['ok']}
  end
  return {0}
end
if not is_timestamp(current) then
  return {-2, string.sub(current, 1, 64)}
end
if tonumber(current) > math.floor(now_millis(ARGV[2]) / tonumber(ARGV[1])) then
  return {1}
end
return {0}
