-- pairs visits every key exactly once (order is unspecified, so sort)
local t = {x = 1, y = 2, z = 3, 10, 20}
local keys = {}
for k in pairs(t) do keys[#keys + 1] = tostring(k) end
table.sort(keys)
print(table.concat(keys, " "))
