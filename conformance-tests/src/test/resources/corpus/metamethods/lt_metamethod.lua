-- __lt implements '<' and '>' (with swapped operands)
local mt = {__lt = function(a, b) return a.v < b.v end}
local x, y = setmetatable({v = 1}, mt), setmetatable({v = 2}, mt)
print(x < y, y < x, x > y, y > x)
