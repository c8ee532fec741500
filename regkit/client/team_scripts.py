"""The Lua scripts of a team budget (:mod:`regkit.client.team_budget`): each runs atomically inside Redis.

Every script reads the time on Redis' clock, so that the clocks of the team's machines do not matter. The keys are
the team's (``regkit-team:{team}:limit|spent|holds|expiry|ledger``); their order is given above each script.
"""

from __future__ import annotations

__all__ = ["PURGE", "RESERVE", "STATE", "SETTLE", "BEAT", "CLAIM"]

# Shared by the scripts: the time on Redis' clock in ms, and dropping reservations that expired by then.
PURGE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local dead = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now)
for i = 1, #dead do
  redis.call('ZREM', KEYS[4], dead[i])
  redis.call('HDEL', KEYS[3], dead[i])
end
local held = 0
for _, v in ipairs(redis.call('HVALS', KEYS[3])) do held = held + tonumber(v) end
local spent = tonumber(redis.call('GET', KEYS[2]) or '0')
local limit = redis.call('GET', KEYS[1])
"""

# KEYS: limit, spent, holds, expiry.  ARGV: id, credits, hold ms.  -> {1 held | 0 refused, spent, held, limit|-1}
RESERVE = (
    PURGE
    + """
local credits = tonumber(ARGV[2])
if limit and credits > tonumber(limit) - spent - held then
  return {0, spent, held, tonumber(limit)}
end
redis.call('HSET', KEYS[3], ARGV[1], credits)
redis.call('ZADD', KEYS[4], now + tonumber(ARGV[3]), ARGV[1])
return {1, spent, held + credits, limit and tonumber(limit) or -1}
"""
)

# KEYS: limit, spent, holds, expiry.  -> {spent, held, limit|-1}
STATE = PURGE + "return {spent, held, limit and tonumber(limit) or -1}\n"

# KEYS: spent, holds, expiry, ledger.  ARGV: id ('' for none), charged, who, call, path, ledger length.
SETTLE = """
if ARGV[1] ~= '' then
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('ZREM', KEYS[3], ARGV[1])
end
local charged = tonumber(ARGV[2])
local spent = redis.call('INCRBY', KEYS[1], charged)
if charged > 0 then
  local t = redis.call('TIME')
  local at = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('XADD', KEYS[4], 'MAXLEN', '~', ARGV[6], '*',
             'who', ARGV[3], 'call', ARGV[4], 'path', ARGV[5], 'credits', ARGV[2], 'at', at)
end
return spent
"""

# KEYS: holds, expiry.  ARGV: hold ms, ids...  -> how many were still held (and are extended)
BEAT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local alive = 0
for i = 2, #ARGV do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 1 then
    redis.call('ZADD', KEYS[2], 'XX', now + tonumber(ARGV[1]), ARGV[i])
    alive = alive + 1
  end
end
return alive
"""

# KEYS: limit.  ARGV: the cap.  -> the team's cap after the call (set only if it had none)
CLAIM = """
local limit = redis.call('GET', KEYS[1])
if not limit then
  redis.call('SET', KEYS[1], ARGV[1])
  return tonumber(ARGV[1])
end
return tonumber(limit)
"""
