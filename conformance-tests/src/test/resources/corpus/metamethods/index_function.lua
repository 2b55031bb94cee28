-- __index as a function receives the table and the key
local t = setmetatable({}, {__index = function(tbl, k) return "computed " .. tostring(k) end})
print(t.foo, t[1])
t.foo = "stored"
print(t.foo)
