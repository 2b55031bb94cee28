-- Unicode text with the utf8 library, as code handling user input does: strings built from code
-- points with utf8.char, measured with utf8.len, walked with utf8.codes and gmatch over
-- utf8.charpattern, sliced with utf8.offset, decoded with utf8.codepoint, and invalid sequences
-- detected. Lua 5.3 only.
local n = tonumber(arg and arg[1]) or 50000

local alphabets = {
  { 0x41, 26 },     -- Latin capitals
  { 0xE0, 32 },     -- Latin-1 accented
  { 0x3B1, 25 },    -- Greek
  { 0x430, 32 },    -- Cyrillic
  { 0x5D0, 27 },    -- Hebrew
  { 0x4E00, 500 },  -- CJK
  { 0x1F600, 60 },  -- emoji (4 bytes)
}

local function word(i)
  local a = alphabets[i % #alphabets + 1]
  local cps = {}
  for k = 1, 3 + i % 6 do cps[k] = a[1] + (i * 7 + k * 3) % a[2] end
  return utf8.char(table.unpack(cps))
end

local chars, bytes, sum, upper, slices, invalid, hash = 0, 0, 0, 0, 0, 0, 0
for i = 1, n do
  local words = {}
  for k = 1, 8 do words[k] = word(i + k) end
  local s = table.concat(words, ' ')
  bytes = bytes + #s
  chars = chars + utf8.len(s)
  for _, c in utf8.codes(s) do
    sum = (sum + c) % 1000000007
  end
  for ch in s:gmatch(utf8.charpattern) do
    if #ch == 1 and ch:find('%u') then upper = upper + 1 end
  end
  -- the middle third, by characters
  local len = utf8.len(s)
  local from, to = utf8.offset(s, len // 3 + 1), utf8.offset(s, 2 * len // 3 + 1) - 1
  local mid = s:sub(from, to)
  slices = slices + utf8.len(mid)
  local first, last = utf8.codepoint(mid, 1), utf8.codepoint(mid, utf8.offset(mid, -1))
  hash = (hash * 31 + first + last) % 2147483647
  -- a truncated sequence is invalid: utf8.len says where
  local bad = s:sub(1, #s - 1) .. '\xff'
  local ok, at = utf8.len(bad)
  if not ok then invalid = invalid + at % 7 end
end
print(string.format('utf8_text n=%d bytes=%d chars=%d sum=%d upper=%d slices=%d invalid=%d hash=%d', n, bytes,
  chars, sum, upper, slices, invalid, hash))
