-- table.sort uses __lt for tables
local mt = {__lt = function(a, b) return a.k < b.k end}
local t = {}
for _, k in ipairs({4, 1, 3, 2}) do t[#t + 1] = setmetatable({k = k}, mt) end
table.sort(t)
print(t[1].k, t[2].k, t[3].k, t[4].k)
