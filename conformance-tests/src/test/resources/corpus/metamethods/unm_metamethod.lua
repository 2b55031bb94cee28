-- __unm implements unary minus (called with the operand twice)
local mt = {}
mt.__unm = function(a, b) return setmetatable({v = -a.v, same = rawequal(a, b)}, mt) end
local x = setmetatable({v = 3}, mt)
local y = -x
print(y.v, y.same)
print((-(-x)).v)
