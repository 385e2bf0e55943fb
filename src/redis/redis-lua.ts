// The Lua scripts of the Redis adapter (Redis ≥ 6.2, Lua 5.1). Each works on the keys of one slot:
// either one session's keys or the global ones (`{g}`: the index, the sets per principal), never both. Time always comes from Redis (`TIME`),
// so no two clocks are compared. ARGV limits of -1 mean "unlimited". Character counts come from the
// caller (JavaScript string lengths), as the in-memory stores count them, not Lua's byte lengths.

/** Helpers every script starts with. */
const PRELUDE = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function fields_of(flat)
  local f = {}
  for i = 1, #flat, 2 do f[flat[i]] = flat[i + 1] end
  return f
end
local function expire_as(key, ttl)
  if ttl > 0 then redis.call('PEXPIRE', key, ttl) end
end
local function stretch_to(key, ttl)
  local left = redis.call('PTTL', key)
  if left ~= -2 and left < ttl then redis.call('PEXPIRE', key, ttl) end
end
local function xdel_all(key, ids)
  for i = 1, #ids, 500 do
    redis.call('XDEL', key, unpack(ids, i, math.min(i + 499, #ids)))
  end
end
`;

/**
 * One script: its Lua, and how many of its arguments are keys (`'variable'`: the caller says, per call).
 * @internal
 */
export interface LuaScript {
  readonly keys: number | 'variable';
  readonly lua: string;
}

const script = (keys: number | 'variable', lua: string): LuaScript => ({ keys, lua: PRELUDE + lua });

/**
 * The scripts, by name.
 * @internal
 */
export const LUA = {
  /**
   * KEYS idx [, owner set]; ARGV sid, idleMs, maxSessions, maxPerOwner. 1: admitted, 0: full,
   * 2: the owner holds its share (checked first: it can free a place itself). The owner's set is
   * kept as the index is: pruned of passed deadlines here, touched with it, trimmed by `end`.
   */
  admit: script(
    'variable',
    `
local t = now_ms()
local idle = tonumber(ARGV[2])
local max, max_own = tonumber(ARGV[3]), tonumber(ARGV[4])
for i = 1, #KEYS do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', string.format('%d', t)) end
if #KEYS > 1 and max_own >= 0 and redis.call('ZCARD', KEYS[2]) >= max_own then return 2 end
if max >= 0 and redis.call('ZCARD', KEYS[1]) >= max then return 0 end
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], string.format('%d', t + idle), ARGV[1])
  if redis.call('PTTL', KEYS[i]) < idle then redis.call('PEXPIRE', KEYS[i], idle) end
end
return 1
`,
  ),
  /** KEYS s; ARGV idleMs, field, value, field, value… */
  create: script(
    1,
    `
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`,
  ),
  /**
   * KEYS s, e, b, u; ARGV idleMs. 0: gone, else { subscribed URIs (their index lives as long)
   * [, owner (its set of sessions is touched too)] }.
   */
  touch: script(
    4,
    `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
local owner = redis.call('HGET', KEYS[1], 'o')
if owner then return { redis.call('SMEMBERS', KEYS[4]), owner } end
return { redis.call('SMEMBERS', KEYS[4]) }
`,
  ),
  /** KEYS key; ARGV ttlMs. Makes a key live at least that long (never shortens it). */
  stretch: script(1, `stretch_to(KEYS[1], tonumber(ARGV[1])) return 1`),
  /** KEYS subscribers; ARGV sid, ttlMs. Indexes a subscription by URI, for at least the session's life. */
  indexSubscriber: script(
    1,
    `
redis.call('SADD', KEYS[1], ARGV[1])
stretch_to(KEYS[1], tonumber(ARGV[2]))
return 1
`,
  ),
  /**
   * KEYS s, e, b, u. Deletes them; returns { the URIs the session was subscribed to [, its owner] }
   * (the caller then takes it out of the index and of its owner's set).
   */
  end: script(
    4,
    `
local uris = redis.call('SMEMBERS', KEYS[4])
local owner = redis.call('HGET', KEYS[1], 'o')
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
if owner then return { uris, owner } end
return { uris }
`,
  ),
  /**
   * KEYS idx, owner sets…; ARGV sid, idleMs, k, sid, idleMs, k… (idleMs -1: the session is gone,
   * remove it; k: the KEYS index of the session's owner set, 0 for none). Each set touched lives
   * as long as its longest-lived member.
   */
  touchIndex: script(
    'variable',
    `
local t = now_ms()
local longest = {}
for i = 1, #ARGV, 3 do
  local sid, idle, own = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
  local sets = { 1 }
  if own > 1 then sets[2] = own end
  for _, k in ipairs(sets) do
    if idle < 0 then
      redis.call('ZREM', KEYS[k], sid)
    else
      redis.call('ZADD', KEYS[k], 'XX', string.format('%d', t + idle), sid)
      if idle > (longest[k] or 0) then longest[k] = idle end
    end
  end
end
for k, ttl in pairs(longest) do stretch_to(KEYS[k], ttl) end
return 1
`,
  ),
  /** KEYS idx. Sessions whose deadline has not passed. */
  count: script(1, `return redis.call('ZCOUNT', KEYS[1], string.format('(%d', now_ms()), '+inf')`),
  /** KEYS idx. The ids of those sessions. */
  live: script(1, `return redis.call('ZRANGEBYSCORE', KEYS[1], string.format('(%d', now_ms()), '+inf')`),
  /** KEYS s, u. nil when gone, else { HGETALL s, SMEMBERS u, PTTL s }. */
  load: script(
    2,
    `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
return { redis.call('HGETALL', KEYS[1]), redis.call('SMEMBERS', KEYS[2]), redis.call('PTTL', KEYS[1]) }
`,
  ),
  /** KEYS s; ARGV field [, value]: sets (or without a value deletes) a field of a live record. */
  setField: script(
    1,
    `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if #ARGV > 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) else redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1
`,
  ),
  /** KEYS s, u; ARGV uri, chars, maxCount, maxChars. { 0 } gone, { 2 } limit, { 1, PTTL s } ok. */
  subscribe: script(
    2,
    `
if redis.call('EXISTS', KEYS[1]) == 0 then return { 0 } end
local ttl = redis.call('PTTL', KEYS[1])
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return { 1, ttl } end
local chars, max_count, max_chars = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if max_count >= 0 and redis.call('SCARD', KEYS[2]) >= max_count then return { 2 } end
local used = tonumber(redis.call('HGET', KEYS[1], 'uc') or '0')
if max_chars >= 0 and used + chars > max_chars then return { 2 } end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('HINCRBY', KEYS[1], 'uc', chars)
expire_as(KEYS[2], ttl)
return { 1, ttl }
`,
  ),
  /** KEYS s, u; ARGV uri, chars. */
  unsubscribe: script(
    2,
    `
if redis.call('SREM', KEYS[2], ARGV[1]) == 1 and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'uc', -tonumber(ARGV[2]))
end
return 1
`,
  ),
  /**
   * KEYS s, e; ARGV streamId, seq, data, chars, maxEvents, maxChars, maxAgeMs. 0: gone, 1: kept.
   * The bounds are the in-memory store's: from the oldest, drop while there are too many, while
   * the oldest is too old, or while there are too many characters and more than one event (the
   * newest is never dropped for its size). `ec` counts the characters kept; `ea` remembers the
   * age bound for `replay`.
   */
  append: script(
    2,
    `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local t = now_ms()
local size = tonumber(ARGV[4])
redis.call('XADD', KEYS[2], '*', 's', ARGV[1], 'q', ARGV[2], 'd', ARGV[3], 'n', ARGV[4])
local count = redis.call('XLEN', KEYS[2])
local chars = size
if count > 1 then chars = tonumber(redis.call('HGET', KEYS[1], 'ec') or '0') + size end
local max_events, max_chars, max_age = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local oldest = t - max_age
local done = false
while not done and count > 0 do
  local batch = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 100)
  local dropped = {}
  for _, entry in ipairs(batch) do
    local ms = tonumber(string.match(entry[1], '^(%d+)'))
    local over = (max_events >= 0 and count > max_events) or (max_age >= 0 and ms < oldest)
      or (max_chars >= 0 and chars > max_chars and count > 1)
    if not over then done = true break end
    dropped[#dropped + 1] = entry[1]
    count = count - 1
    chars = chars - (tonumber(fields_of(entry[2]).n) or 0)
  end
  xdel_all(KEYS[2], dropped)
  if #batch == 0 then done = true end
end
if count == 0 then
  redis.call('DEL', KEYS[2])
  chars = 0
else
  expire_as(KEYS[2], redis.call('PTTL', KEYS[1]))
end
redis.call('HSET', KEYS[1], 'ec', chars, 'ea', ARGV[7])
return 1
`,
  ),
  /** KEYS s, e; ARGV streamId, afterSeq. Flat { seq, data, seq, data… } of that stream, in order. */
  replay: script(
    2,
    `
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
local start = '-'
local max_age = tonumber(redis.call('HGET', KEYS[1], 'ea') or '-1')
if max_age >= 0 then
  local oldest = now_ms() - max_age
  if oldest > 0 then start = string.format('%d', oldest) end
end
local after = tonumber(ARGV[2])
local out = {}
for _, entry in ipairs(redis.call('XRANGE', KEYS[2], start, '+')) do
  local f = fields_of(entry[2])
  if f.s == ARGV[1] and tonumber(f.q) > after then
    out[#out + 1] = f.q
    out[#out + 1] = f.d
  end
end
return out
`,
  ),
  /** KEYS s, e; ARGV streamId. Deletes that stream's events and fixes the character count. */
  deleteStream: script(
    2,
    `
local dropped, chars = {}, 0
for _, entry in ipairs(redis.call('XRANGE', KEYS[2], '-', '+')) do
  local f = fields_of(entry[2])
  if f.s == ARGV[1] then
    dropped[#dropped + 1] = entry[1]
    chars = chars + (tonumber(f.n) or 0)
  end
end
xdel_all(KEYS[2], dropped)
local live = redis.call('EXISTS', KEYS[1]) == 1
if redis.call('XLEN', KEYS[2]) == 0 then
  redis.call('DEL', KEYS[2])
  if live then redis.call('HSET', KEYS[1], 'ec', 0) end
elseif live and chars > 0 then
  redis.call('HINCRBY', KEYS[1], 'ec', -chars)
end
return #dropped
`,
  ),
  /**
   * KEYS s, b; ARGV me, force ('1'|'0'), inbox channel prefix, the `stream-released` message.
   * { 0 } gone, { 2, holder } busy, { 1, previous|'', backlog } ok; a previous holder is told in
   * its inbox.
   */
  claim: script(
    2,
    `
if redis.call('EXISTS', KEYS[1]) == 0 then return { 0 } end
local holder = redis.call('HGET', KEYS[1], 'gr')
if holder and holder ~= ARGV[1] and ARGV[2] ~= '1' then return { 2, holder } end
redis.call('HSET', KEYS[1], 'gr', ARGV[1])
local backlog = redis.call('LRANGE', KEYS[2], 0, -1)
redis.call('DEL', KEYS[2])
local previous = ''
if holder and holder ~= ARGV[1] then
  previous = holder
  -- Told in the same step: a fan-out that found the old holder before this claim reaches it after
  -- this notice (one channel, one order), so it forwards rather than writes to the left connection.
  redis.call('PUBLISH', ARGV[3] .. holder, ARGV[4])
end
return { 1, previous, backlog }
`,
  ),
  /** KEYS s; ARGV me. Forgets the holder only if it is still this instance. */
  release: script(
    1,
    `
if redis.call('HGET', KEYS[1], 'gr') == ARGV[1] then redis.call('HDEL', KEYS[1], 'gr') end
return 1
`,
  ),
  /**
   * KEYS s, b; ARGV channel, data, backlogLimit. 0: gone, 1: held (published), 2: queued.
   * Published only while a holder is recorded and hears the channel: an instance that is only
   * claiming (not yet recorded) or releasing (no longer subscribed) leaves it to the backlog.
   */
  sendStandalone: script(
    2,
    `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[1], 'gr') == 1 and redis.call('PUBLISH', ARGV[1], ARGV[2]) > 0 then return 1 end
local limit = tonumber(ARGV[3])
if limit == 0 then return 2 end
redis.call('RPUSH', KEYS[2], ARGV[2])
if limit > 0 then redis.call('LTRIM', KEYS[2], -limit, -1) end
expire_as(KEYS[2], redis.call('PTTL', KEYS[1]))
return 2
`,
  ),
  /**
   * KEYS s, b; ARGV data, backlogLimit. { 0 }: gone, { 1, holder }: held by that instance (nothing
   * sent: the caller tells each holder once for many sessions), { 2 }: queued in the backlog.
   */
  standaloneHolder: script(
    2,
    `
if redis.call('EXISTS', KEYS[1]) == 0 then return { 0 } end
local holder = redis.call('HGET', KEYS[1], 'gr')
if holder then return { 1, holder } end
local limit = tonumber(ARGV[2])
if limit == 0 then return { 2 } end
redis.call('RPUSH', KEYS[2], ARGV[1])
if limit > 0 then redis.call('LTRIM', KEYS[2], -limit, -1) end
expire_as(KEYS[2], redis.call('PTTL', KEYS[1]))
return { 2 }
`,
  ),
  /**
   * KEYS t, ta, tl, to, tr, trs, toe; ARGV taskId, json, ttlMs, maxTasks, maxPerOwner, maxTtlMs, replica.
   * 1: created, 0: `maxTasks` tasks are kept, 2: the owner has `maxPerOwner` unfinished ones
   * (checked first: it can free a place itself). Admission and record in one step: a task admitted
   * exists, and the reply comes after the write. The owner's list (to) is scored by Redis time to the
   * microsecond (creation order, even within a millisecond); toe holds the same ids scored by their
   * expiry. Each id leaves both at its own expiry, whatever `maxTtlMs` the instance that creates the
   * next task has, so an owner who never lists its tasks does not grow them and instances configured
   * apart never drop one another's live tasks. An id without an expiry in toe was written by an
   * earlier version (which scored only by creation): it leaves the list once older than this
   * instance's `maxTtlMs` and its record is gone (a few per creation; a listing drops them too).
   */
  taskCreate: script(
    7,
    `
local clock = redis.call('TIME')
local t = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local created = tonumber(clock[1]) * 1000 + tonumber(clock[2]) / 1000
local ttl = tonumber(ARGV[3])
local max, max_own = tonumber(ARGV[4]), tonumber(ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', string.format('%d', t))
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', string.format('%d', t))
local expired = redis.call('ZRANGEBYSCORE', KEYS[7], '-inf', string.format('%d', t))
for i = 1, #expired, 500 do
  local last = math.min(i + 499, #expired)
  redis.call('ZREM', KEYS[4], unpack(expired, i, last))
  redis.call('ZREM', KEYS[7], unpack(expired, i, last))
end
local prefix = string.sub(KEYS[1], 1, #KEYS[1] - #ARGV[1])
local before = '(' .. string.format('%.3f', created - tonumber(ARGV[6]))
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', before, 'LIMIT', 0, 16)) do
  -- Tasks live in the slot of KEYS[1] (the {g} tag): the record of an earlier id is on this node too.
  if not redis.call('ZSCORE', KEYS[7], id) and redis.call('EXISTS', prefix .. id) == 0 then
    redis.call('ZREM', KEYS[4], id)
  end
end
if max_own >= 0 and redis.call('ZCARD', KEYS[3]) >= max_own then return 2 end
if max >= 0 and redis.call('ZCARD', KEYS[2]) >= max then return 0 end
redis.call('HSET', KEYS[1], 'v', 1, 'j', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
local ends = string.format('%d', t + ttl)
redis.call('ZADD', KEYS[2], ends, ARGV[1])
redis.call('ZADD', KEYS[3], ends, ARGV[1])
redis.call('ZADD', KEYS[4], string.format('%.3f', created), ARGV[1])
redis.call('ZADD', KEYS[7], ends, ARGV[1])
redis.call('SADD', KEYS[5], ARGV[1])
redis.call('SADD', KEYS[6], ARGV[7])
for i = 2, 7 do
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return 1
`,
  ),
  /**
   * KEYS t, tl, tr; ARGV version, json, finished (1/0), taskId [, ttlMs]. 1: written (the TTL kept,
   * or shortened to ttlMs), 0: gone, 2: the version changed since it was read. A task that ends
   * leaves its owner's unfinished set and its instance's set.
   */
  taskCas: script(
    3,
    `
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return 0 end
if v ~= ARGV[1] then return 2 end
redis.call('HSET', KEYS[1], 'v', tonumber(v) + 1, 'j', ARGV[2])
if ARGV[5] and tonumber(ARGV[5]) < redis.call('PTTL', KEYS[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[5]) end
if ARGV[3] == '1' then
  redis.call('ZREM', KEYS[2], ARGV[4])
  redis.call('SREM', KEYS[3], ARGV[4])
end
return 1
`,
  ),
  /**
   * KEYS to; ARGV after (taskId or ''), count. Up to \`count\` ids of an owner's tasks, oldest
   * first, after \`after\` (from the start when it is not there any more).
   */
  taskPage: script(
    1,
    `
local start = 0
if ARGV[1] ~= '' then
  local rank = redis.call('ZRANK', KEYS[1], ARGV[1])
  if rank then start = rank + 1 end
end
return redis.call('ZRANGE', KEYS[1], start, start + tonumber(ARGV[2]) - 1)
`,
  ),
  /**
   * KEYS tr, trs, the task of each id of tr (read just before); ARGV the replica, 1 when it is the
   * caller's own (mine) else 0, then the ids in the order of their keys. Drops from tr the ids whose
   * record is gone, and the replica from trs when none is left and it is not the caller's (the caller
   * may be recording a new task at this moment); returns the ids still there. One step per sweep
   * whatever the number of tasks, instead of one EXISTS per task.
   */
  taskRunBy: script(
    'variable',
    `
local present, gone = {}, {}
for i = 3, #KEYS do
  local id = ARGV[i]
  if redis.call('EXISTS', KEYS[i]) == 1 then present[#present + 1] = id else gone[#gone + 1] = id end
end
for i = 1, #gone, 500 do
  redis.call('SREM', KEYS[1], unpack(gone, i, math.min(i + 499, #gone)))
end
if #present == 0 and ARGV[2] == '0' then redis.call('SREM', KEYS[2], ARGV[1]) end
return present
`,
  ),
} as const satisfies Record<string, LuaScript>;
