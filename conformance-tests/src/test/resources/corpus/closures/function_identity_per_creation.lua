-- each evaluation of a function expression creates a function value
local fs = {}
for i = 1, 2 do fs[i] = function() end end
print(type(fs[1]), fs[1] == fs[1])
