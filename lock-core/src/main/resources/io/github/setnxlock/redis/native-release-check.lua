-- Token protocol: whether this server and this user can release a lock with the server's
-- own compare-and-delete, DELIFEQ (Valkey 9 and later). Asked from a script because
-- redis.acl_check_cmd answers without being refused: a user whose rules leave DELIFEQ out
-- sees no refusal in its ACL LOG, and a server without the command (or, before Redis 7,
-- without acl_check_cmd) only raises an error that pcall catches.
-- KEYS[1] a lock key
-- Returns 1 when DELIFEQ on the key is allowed, else 0.
local known, allowed = pcall(redis.acl_check_cmd, 'DELIFEQ', KEYS[1], '')
if known and allowed then
  return 1
end
return 0
