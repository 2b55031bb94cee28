-- __eq is not called when both operands are the same object
local calls = 0
local mt = {__eq = function() calls = calls + 1; return false end}
local a = setmetatable({}, mt)
print(a == a, calls)
local b = setmetatable({}, mt)
print(a == b, calls)
