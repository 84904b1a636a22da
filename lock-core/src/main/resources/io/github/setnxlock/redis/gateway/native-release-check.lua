-- Token protocol: whether this server and this user can release a lock with the server's
-- own compare-and-delete: DELIFEQ (Valkey 9 and later) or DELEX ... IFEQ (Redis 8.4 and
-- later). Asked from a script because redis.acl_check_cmd answers without being refused:
-- a user whose rules leave the command out sees no refusal in its ACL LOG, and a server
-- without the command (or, before Redis 7, without acl_check_cmd) only raises an error
-- that pcall catches.
-- KEYS[1] a lock key
-- Returns 1 when DELIFEQ on the key is allowed, 2 when DELEX is, else 0.
local function allowed(...)
  local known, answer = pcall(redis.acl_check_cmd, ...)
  return known and answer
end
if allowed('DELIFEQ', KEYS[1], '') then
  return 1
end
if allowed('DELEX', KEYS[1], 'IFEQ', '') then
  return 2
end
return 0
