-- in 5.3 the first operand's __eq is tried, then the second's
local a = setmetatable({}, {__eq = function() return true end})
local b = setmetatable({}, {})
local c = {}
print(a == b, b == a, c == a)
