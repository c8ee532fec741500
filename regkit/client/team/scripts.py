"""The Lua scripts of a team budget (:mod:`regkit.client.team`): each runs atomically inside Redis.

Every script reads the time on Redis' clock, so that the clocks of the team's machines do not matter. The keys are
the team's, all in one hash slot (``regkit-team:{team}:budget|holds|expiry|orphans|carried|ledger``); their order and the
arguments are given above each script.

``budget`` is one hash, the team itself: ``id`` (the team's random identity, written when it was created),
``inc`` (its incarnation: a new random value each time it is re-established), ``created``, ``limit`` (absent: no
cap), ``spent``, ``gen`` (a counter every reservation, settlement, reconciliation and restore raises),
``unsure`` (credits settled that the register's account may already have counted), and the anchor: ``used``,
``reset`` and ``period``, the account's ``used_credits``, ``period.reset_at`` and ``period.type`` when the team
began. The hash missing, or holding another ``id`` or an older ``gen`` than a member has seen, means that Redis lost
(or rolled back) the team's data.
"""

from __future__ import annotations

__all__ = ["STATE", "RESERVE", "SETTLE", "BEAT", "CLAIM", "SET_LIMIT", "RECONCILE", "RESTORE"]

# The time on Redis' clock in ms.
_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""

# KEYS: budget, holds, expiry, orphans.  ARGV[1]: the team's id as the caller knows it, ARGV[2]: the highest
# ``gen`` the caller has seen.  Moves reservations whose hold passed to the orphans (still counted), adds up what
# is held, reads the team and rates it: 1 as the caller knows it, -1 gone, -2 another team, -3 rolled back.
_READ = (
    _NOW
    + """
local dead = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
for i = 1, #dead do
  local c = redis.call('HGET', KEYS[2], dead[i])
  redis.call('ZREM', KEYS[3], dead[i])
  if c then
    redis.call('HDEL', KEYS[2], dead[i])
    redis.call('HSET', KEYS[4], dead[i], c)
  end
end
local live, orphaned = 0, 0
for _, v in ipairs(redis.call('HVALS', KEYS[2])) do live = live + tonumber(v) end
for _, v in ipairs(redis.call('HVALS', KEYS[4])) do orphaned = orphaned + tonumber(v) end
local calls = redis.call('HLEN', KEYS[2])
local team = redis.call('HMGET', KEYS[1], 'id', 'inc', 'limit', 'spent', 'gen', 'unsure', 'used', 'reset', 'period',
                       'created')
local spent = tonumber(team[4] or '0')
local gen = tonumber(team[5] or '0')
local status = 1
if not team[1] then status = -1
elseif team[1] ~= ARGV[1] then status = -2
elseif gen < tonumber(ARGV[2]) then status = -3 end
local info = {status, spent, live, orphaned, team[3] and tonumber(team[3]) or -1, calls, gen,
              tonumber(team[6] or '0'), team[2] or '', team[7] or '', team[8] or '', team[9] or '', team[1] or '',
              team[10] or ''}
"""
)

# KEYS: budget, holds, expiry, orphans.  ARGV: id, gen seen.
# -> {status, spent, live, orphaned, limit|-1, calls, gen, unsure, inc, used|'', reset, period, id, created}
STATE = _READ + "return info\n"

# KEYS: budget, holds, expiry, orphans.  ARGV: id, gen seen, reservation id, credits, hold ms, reconcile wanted (1/0).
# -> the state of STATE, its status: 1 held, 0 refused, 2 to be reconciled first (asked for, nothing in flight, and
# orphans, unsure credits or no anchor), or the team's trouble (-1, -2, -3).
RESERVE = (
    _READ
    + """
if status ~= 1 then return info end
if ARGV[6] == '1' and calls == 0 and (orphaned > 0 or info[8] > 0 or not team[7]) then
  info[1] = 2
  return info
end
local credits = tonumber(ARGV[4])
if team[3] and credits > tonumber(team[3]) - spent - live - orphaned then
  info[1] = 0
  return info
end
redis.call('HSET', KEYS[2], ARGV[3], credits)
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[5]), ARGV[3])
info[7] = redis.call('HINCRBY', KEYS[1], 'gen', 1)
info[3] = live + credits
info[6] = calls + 1
return info
"""
)

# KEYS: budget, holds, expiry, orphans, carried, ledger.  ARGV: reservation id ('' for none), charged, who, call,
# path, ledger length, the incarnation the reservation was made in.  -> {1, spent, exact (1/0), gen}, or {-1} when
# the team is gone (nothing written). Not exact: the reservation is from before a restore, or was an orphan that a
# reconciliation settled already, so the register's account may have counted the charge already (``unsure``).
SETTLE = (
    _NOW
    + """
local team = redis.call('HMGET', KEYS[1], 'id', 'inc')
if not team[1] then return {-1, 0, 0, 0} end
local exact = 1
if ARGV[7] ~= team[2] then exact = 0 end
if ARGV[1] ~= '' then
  if redis.call('HDEL', KEYS[2], ARGV[1]) == 1 then
    redis.call('ZREM', KEYS[3], ARGV[1])
  elseif redis.call('HDEL', KEYS[4], ARGV[1]) == 0 then
    exact = 0
  end
  if redis.call('SREM', KEYS[5], ARGV[1]) == 1 then exact = 0 end
end
local charged = tonumber(ARGV[2])
local spent = redis.call('HINCRBY', KEYS[1], 'spent', charged)
local gen = redis.call('HINCRBY', KEYS[1], 'gen', 1)
if exact == 0 and charged > 0 then redis.call('HINCRBY', KEYS[1], 'unsure', charged) end
if charged > 0 then
  redis.call('XADD', KEYS[6], 'MAXLEN', '~', ARGV[6], '*',
             'who', ARGV[3], 'call', ARGV[4], 'path', ARGV[5], 'credits', ARGV[2], 'at', now)
end
return {1, spent, exact, gen}
"""
)

# KEYS: budget, holds, expiry, orphans, carried.  ARGV: hold ms, then pairs of reservation id and credits (the
# caller's calls in flight).  Extends each; one that became an orphan (its beats were missed) is held again, and so
# is one that is missing (settled by a reconciliation, or from before a restore: ``carried``, its settlement is not
# exact), since its call still runs.
# -> {extended, held again}, or {-1, 0} when the team is gone.
BEAT = (
    _NOW
    + """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1, 0} end
local alive, again = 0, 0
for i = 2, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[2], ARGV[i]) == 1 then
    alive = alive + 1
  else
    local orphan = redis.call('HGET', KEYS[4], ARGV[i])
    if orphan then
      redis.call('HDEL', KEYS[4], ARGV[i])
    else
      redis.call('SADD', KEYS[5], ARGV[i])
    end
    redis.call('HSET', KEYS[2], ARGV[i], orphan or ARGV[i + 1])
    again = again + 1
  end
  redis.call('ZADD', KEYS[3], now + tonumber(ARGV[1]), ARGV[i])
end
return {alive, again}
"""
)

# KEYS: budget.  ARGV: the cap ('' for none), a new id, a new incarnation.  Creates the team if it does not exist
# (with the cap, if given), or sets the cap of a team that has none.
# -> {created (1/0), id, inc, limit|-1, gen, used|'', reset, period, created at}
CLAIM = (
    _NOW
    + """
local team = redis.call('HMGET', KEYS[1], 'id', 'inc', 'limit', 'gen', 'used', 'reset', 'period', 'created')
if not team[1] then
  redis.call('HSET', KEYS[1], 'id', ARGV[2], 'inc', ARGV[3], 'created', now, 'spent', 0, 'gen', 0, 'unsure', 0)
  if ARGV[1] ~= '' then redis.call('HSET', KEYS[1], 'limit', ARGV[1]) end
  return {1, ARGV[2], ARGV[3], ARGV[1] ~= '' and tonumber(ARGV[1]) or -1, 0, '', '', '', tostring(now)}
end
if ARGV[1] ~= '' and not team[3] then
  redis.call('HSET', KEYS[1], 'limit', ARGV[1])
  team[3] = ARGV[1]
end
return {0, team[1], team[2] or '', team[3] and tonumber(team[3]) or -1, tonumber(team[4] or '0'), team[5] or '',
        team[6] or '', team[7] or '', team[8] or ''}
"""
)

# KEYS: budget.  ARGV: id, the cap ('' removes it).  -> 1, or -1 (gone) / -2 (another team): nothing written.
SET_LIMIT = """
local id = redis.call('HGET', KEYS[1], 'id')
if not id then return -1 end
if id ~= ARGV[1] then return -2 end
if ARGV[2] == '' then redis.call('HDEL', KEYS[1], 'limit') else redis.call('HSET', KEYS[1], 'limit', ARGV[2]) end
return 1
"""

# KEYS: budget, holds, expiry, orphans, carried, ledger.  ARGV: id, gen and incarnation read before the account was, the
# account's used credits, reset_at, period type, who, ledger length.
# Only if nothing was reserved or settled since that read and no call is in flight: spent = used - anchor (an
# unanchored team is anchored instead, counting its orphans as spent), the orphans are dropped, nothing is unsure.
# -> {1, spent before, spent after, orphaned credits dropped, anchor}, {0} (something happened: try again later),
# {-1} gone, {-2} another team or incarnation.
RECONCILE = (
    _READ
    + """
if status == -1 then return {-1} end
if team[1] ~= ARGV[1] or team[2] ~= ARGV[3] then return {-2} end
if gen ~= tonumber(ARGV[2]) or calls > 0 then return {0} end
local used = tonumber(ARGV[4])
local anchor, after
if team[7] then
  anchor = tonumber(team[7])
  after = used - anchor
else
  after = spent + orphaned
  anchor = used - after
  redis.call('HSET', KEYS[1], 'used', anchor, 'reset', ARGV[5], 'period', ARGV[6])
end
redis.call('HSET', KEYS[1], 'spent', after, 'unsure', 0)
redis.call('HINCRBY', KEYS[1], 'gen', 1)
redis.call('DEL', KEYS[4], KEYS[5])
if after ~= spent then
  redis.call('XADD', KEYS[6], 'MAXLEN', '~', ARGV[8], '*', 'who', ARGV[7], 'call', 'reconcile',
             'path', '/v1/credits', 'credits', after - spent, 'at', now)
end
return {1, spent, after, orphaned, anchor}
"""
)

# KEYS: budget, holds, expiry, orphans, carried, ledger.  ARGV: id, new incarnation, cap ('' none), anchor ('' unknown),
# reset, period, spent, who, ledger length, the highest gen the caller has seen, created at, hold ms, then pairs
# of reservation id and credits (the caller's calls in flight, held again).
# Re-establishes the team unless it is there as the caller knows it (-> {0}) or another, anchored team counts at
# least as much (-> {2}: the caller adopts it). Holds and orphans in Redis are kept: they are still counted.
# -> {1, gen}
RESTORE = (
    _NOW
    + """
local team = redis.call('HMGET', KEYS[1], 'id', 'used', 'gen', 'limit')
local gen = tonumber(team[3] or '0')
if team[1] == ARGV[1] and gen >= tonumber(ARGV[10]) then return {0, gen} end
if team[1] and team[1] ~= ARGV[1] and team[2] and ARGV[4] ~= '' and tonumber(team[2]) <= tonumber(ARGV[4]) then
  return {2, gen}
end
local limit = ARGV[3]
if limit == '' and team[4] and team[1] ~= ARGV[1] then limit = team[4] end
gen = math.max(gen, tonumber(ARGV[10])) + 1
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'id', ARGV[1], 'inc', ARGV[2], 'created', ARGV[11], 'spent', ARGV[7], 'gen', gen,
           'unsure', 0)
if limit ~= '' then redis.call('HSET', KEYS[1], 'limit', limit) end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'used', ARGV[4], 'reset', ARGV[5], 'period', ARGV[6]) end
for i = 13, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[4], ARGV[i]) == 0 then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
    redis.call('ZADD', KEYS[3], now + tonumber(ARGV[12]), ARGV[i])
  end
end
redis.call('XADD', KEYS[6], 'MAXLEN', '~', ARGV[9], '*', 'who', ARGV[8], 'call', 'restore', 'path', '/v1/credits',
           'credits', ARGV[7], 'at', now)
return {1, gen}
"""
)
