local mt = {__index = function(t, k) return k * 2 end, __newindex = rawset, __call = function(s, ...) return ... end,
 __add = function(a, b) return 1 end, __eq = function() return true end, __lt = function() return false end,
 __le = function() return true end, __concat = function() return "c" end, __len = function() return 7 end,
 __unm = function() return -1 end, __tostring = function() return "T" end, __band = function() return 3 end}
local a = setmetatable({}, mt) local b = setmetatable({}, mt)
print(a[21], a(1, 2), a + 1, a == b, a < b, a <= b, a .. "x", #a, -a, tostring(a), a & 1)
