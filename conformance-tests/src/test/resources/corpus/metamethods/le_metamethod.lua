-- __le implements '<=' and '>='
local mt = {__le = function(a, b) return a.v <= b.v end}
local x, y = setmetatable({v = 1}, mt), setmetatable({v = 1}, mt)
print(x <= y, x >= y)
