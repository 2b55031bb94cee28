-- Binary records with string.pack and string.unpack, as code speaking a wire format does:
-- records of mixed fields (integers of several widths and both endiannesses, doubles, length-
-- prefixed and zero-terminated strings, alignment) packed into a buffer, read back field by field
-- with positions, and checked against what was written. Lua 5.3 only.
local n = tonumber(arg and arg[1]) or 120000

local header = '<I4 i2 B d s2 z'
local trailer = '>i8 I3 !4 i4 j'

local function fields(i)
  return i * 2654435761 % 2147483647, (i % 65536) - 32768, i % 256, i / 8,
         'name-' .. (i % 1000), 'tag' .. (i % 37)
end

local parts, size = {}, 0
for i = 1, n do
  local a, b, c, d, e, f = fields(i)
  local rec = string.pack(header, a, b, c, d, e, f) .. string.pack(trailer, -i * 1000003, i % 16777216, i % 99991, i * i)
  parts[#parts + 1] = string.pack('<s4', rec)
  size = size + #rec
end
local buffer = table.concat(parts)

local pos, count, sum, strs = 1, 0, 0, 0
while pos <= #buffer do
  local rec
  rec, pos = string.unpack('<s4', buffer, pos)
  count = count + 1
  local a, b, c, d, e, f, p = string.unpack(header, rec)
  local g, h, k, l = string.unpack(trailer, rec:sub(p)) -- aligned from its own start, as packed
  local ea, eb, ec, ed, ee, ef = fields(count)
  if a ~= ea or b ~= eb or c ~= ec or d ~= ed or e ~= ee or f ~= ef or g ~= -count * 1000003 or l ~= count * count then
    error('record ' .. count .. ' differs')
  end
  sum = (sum + a + b + c + h + k) % 1000000007
  strs = strs + #e + #f
end
print(string.format('string_pack n=%d records=%d bytes=%d packsize=%d sum=%d strs=%d', n, count, #buffer,
  string.packsize('<I4 i2 B d'), sum, strs))
