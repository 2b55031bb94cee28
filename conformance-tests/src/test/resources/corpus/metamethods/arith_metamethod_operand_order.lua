-- the metamethod receives the operands in their original order
local mt = {__sub = function(a, b)
  local function v(o) return type(o) == "table" and o.v or o end
  return v(a) - v(b)
end}
local x = setmetatable({v = 10}, mt)
print(x - 3, 3 - x)
