-- functions can receive and return many values
local t = {}
for i = 1, 200 do t[i] = i end
local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + select(i, ...) end
  return s
end
print(sum(table.unpack(t)))
print(select("#", table.unpack(t)))
