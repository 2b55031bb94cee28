-- tables are passed by reference
local function fill(t) t.filled = true end
local a = {}
local b = a
fill(b)
print(a.filled, a == b)
