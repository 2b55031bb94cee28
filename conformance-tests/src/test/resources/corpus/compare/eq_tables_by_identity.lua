-- tables and functions are equal only to themselves
local a, b = {}, {}
print(a == b, a == a, a ~= b)
local f = function() end
local g = f
print(f == g, f == function() end)
