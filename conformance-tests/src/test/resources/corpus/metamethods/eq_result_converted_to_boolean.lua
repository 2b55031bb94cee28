-- the result of __eq is converted to a boolean
local mt = {__eq = function() return "yes" end}
local a, b = setmetatable({}, mt), setmetatable({}, mt)
print(a == b, a ~= b)
