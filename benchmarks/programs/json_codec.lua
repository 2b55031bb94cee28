-- JSON encode/decode written in plain Lua, as an agent's tool script would carry it:
-- records with nested objects, arrays, escaped strings and numbers are encoded (keys sorted,
-- so the text is the same in every engine), decoded back and encoded again; the two texts must
-- agree. Stresses string.format, string.byte/sub/find, gsub with a table, table.concat, tonumber.
local n = tonumber(arg and arg[1]) or 10000

local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f',
                  ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }

local function escape_char(c)
  return escapes[c] or string.format('\\u%04x', c:byte())
end

local encode

local function encode_string(s)
  return '"' .. s:gsub('[%c"\\]', escape_char) .. '"'
end

local function is_array(t)
  local count = 0
  for _ in pairs(t) do count = count + 1 end
  return count == #t
end

local function encode_table(t, out)
  if next(t) ~= nil and is_array(t) then
    out[#out + 1] = '['
    for i = 1, #t do
      if i > 1 then out[#out + 1] = ',' end
      encode(t[i], out)
    end
    out[#out + 1] = ']'
  else
    local keys = {}
    for k in pairs(t) do keys[#keys + 1] = k end
    table.sort(keys)
    out[#out + 1] = '{'
    for i, k in ipairs(keys) do
      if i > 1 then out[#out + 1] = ',' end
      out[#out + 1] = encode_string(k)
      out[#out + 1] = ':'
      encode(t[k], out)
    end
    out[#out + 1] = '}'
  end
end

encode = function(v, out)
  local kind = type(v)
  if kind == 'table' then
    encode_table(v, out)
  elseif kind == 'string' then
    out[#out + 1] = encode_string(v)
  elseif kind == 'number' then
    if math.type(v) == 'integer' then
      out[#out + 1] = string.format('%d', v)
    else
      out[#out + 1] = string.format('%.14g', v)
    end
  elseif kind == 'boolean' then
    out[#out + 1] = v and 'true' or 'false'
  else
    out[#out + 1] = 'null'
  end
end

local function to_json(v)
  local out = {}
  encode(v, out)
  return table.concat(out)
end

-- decoding
local decode_value

local function skip(s, i)
  return s:find('[^ \t\r\n]', i) or #s + 1
end

local unescapes = { ['"'] = '"', ['\\'] = '\\', ['/'] = '/', b = '\b', f = '\f', n = '\n', r = '\r', t = '\t' }

local function decode_string(s, i)
  local parts = {}
  local j = i + 1
  while true do
    local k = s:find('["\\]', j)
    if not k then error('unterminated string at ' .. i) end
    parts[#parts + 1] = s:sub(j, k - 1)
    if s:byte(k) == 34 then
      return table.concat(parts), k + 1
    end
    local c = s:sub(k + 1, k + 1)
    if c == 'u' then
      parts[#parts + 1] = string.char(tonumber(s:sub(k + 2, k + 5), 16))
      j = k + 6
    else
      parts[#parts + 1] = unescapes[c] or error('bad escape \\' .. c)
      j = k + 2
    end
  end
end

local function decode_number(s, i)
  local text = s:match('^-?%d+%.?%d*[eE]?[-+]?%d*', i)
  if text:find('[.eE]') then return tonumber(text), i + #text end
  return math.tointeger(tonumber(text)), i + #text
end

decode_value = function(s, i)
  i = skip(s, i)
  local c = s:byte(i)
  if c == 123 then -- {
    local obj = {}
    i = skip(s, i + 1)
    if s:byte(i) == 125 then return obj, i + 1 end
    while true do
      local key
      key, i = decode_string(s, skip(s, i))
      i = skip(s, i)
      if s:byte(i) ~= 58 then error('expected : at ' .. i) end
      obj[key], i = decode_value(s, i + 1)
      i = skip(s, i)
      local d = s:byte(i)
      if d == 125 then return obj, i + 1 end
      if d ~= 44 then error('expected , or } at ' .. i) end
      i = i + 1
    end
  elseif c == 91 then -- [
    local arr = {}
    i = skip(s, i + 1)
    if s:byte(i) == 93 then return arr, i + 1 end
    while true do
      arr[#arr + 1], i = decode_value(s, i)
      i = skip(s, i)
      local d = s:byte(i)
      if d == 93 then return arr, i + 1 end
      if d ~= 44 then error('expected , or ] at ' .. i) end
      i = i + 1
    end
  elseif c == 34 then
    return decode_string(s, i)
  elseif s:find('^true', i) then
    return true, i + 4
  elseif s:find('^false', i) then
    return false, i + 5
  elseif s:find('^null', i) then
    return nil, i + 4
  else
    return decode_number(s, i)
  end
end

local function from_json(s)
  local v, i = decode_value(s, 1)
  return v
end

-- the documents
local words = { 'alpha', 'beta', 'gamma', 'delta "quoted"', 'tab\there', 'line\nbreak', 'back\\slash', 'plain' }

local function record(k)
  return {
    id = k,
    name = words[k % #words + 1] .. ' #' .. k,
    price = (k % 997) * 1.25,
    active = k % 3 == 0,
    tags = { words[(k * 7) % #words + 1], words[(k * 3) % #words + 1], 'tag' .. (k % 50) },
    owner = { id = k * 31 % 1000, email = 'user' .. (k % 211) .. '@example.com', roles = { 'read', k % 5 == 0 and 'write' or 'none' } },
    history = { { at = 1600000000 + k, delta = -(k % 17) }, { at = 1600003600 + k, delta = k % 23 } },
  }
end

local hash = 0
local total = 0
local batch = {}
for k = 1, n do
  batch[#batch + 1] = record(k)
  if #batch == 50 or k == n then
    local text = to_json({ page = k, items = batch })
    local back = from_json(text)
    local again = to_json(back)
    if again ~= text then error('round trip differs at record ' .. k) end
    total = total + #text
    for i = 1, #text, 13 do hash = (hash * 31 + text:byte(i)) % 2147483647 end
    batch = {}
  end
end
print(string.format('json_codec n=%d bytes=%d hash=%d', n, total, hash))
