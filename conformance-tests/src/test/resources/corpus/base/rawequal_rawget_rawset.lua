-- raw functions bypass metamethods
local mt = {__eq = function() return true end, __index = function() return "idx" end}
local a, b = setmetatable({}, mt), setmetatable({}, mt)
print(a == b, rawequal(a, b), rawequal(a, a))
print(a.k, rawget(a, "k"))
print(rawset(a, "k", 1) == a, rawget(a, "k"))
print(pcall(rawget, "str", 1))
