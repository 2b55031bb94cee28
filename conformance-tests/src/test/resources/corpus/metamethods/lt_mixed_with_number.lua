-- __lt is also tried when one operand is a number
local mt = {__lt = function(a, b)
  local function v(o) return type(o) == "table" and o.v or o end
  return v(a) < v(b)
end}
local x = setmetatable({v = 5}, mt)
print(x < 10, 1 < x, x > 10)
