-- in Lua 5.3, a <= b without __le uses not (b < a)
local calls = {}
local mt = {__lt = function(a, b)
  calls[#calls + 1] = a.v .. "<" .. b.v
  return a.v < b.v
end}
local x, y = setmetatable({v = 1}, mt), setmetatable({v = 2}, mt)
print(x <= y, y <= x, x >= y)
print(table.concat(calls, " "))
