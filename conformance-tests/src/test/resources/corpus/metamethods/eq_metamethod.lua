-- __eq is called for two different tables; result converted to boolean
local mt = {__eq = function(a, b) return a.v == b.v end}
local a = setmetatable({v = 1}, mt)
local b = setmetatable({v = 1}, mt)
local c = setmetatable({v = 2}, mt)
print(a == b, a == c, a ~= b)
print(rawequal(a, b))
print(a == 1)
