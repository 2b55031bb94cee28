-- __newindex table is itself subject to its own __newindex
local inner = setmetatable({}, {__newindex = function(t, k, v) rawset(t, k, "inner:" .. v) end})
local outer = setmetatable({}, {__newindex = inner})
outer.x = "v"
print(rawget(outer, "x"), rawget(inner, "x"))
