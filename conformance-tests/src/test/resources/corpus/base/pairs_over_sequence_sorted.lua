-- pairs visits all entries (collected and sorted for determinism)
local t = {"a", "b", "c", x = 1, y = 2}
local items = {}
for k, v in pairs(t) do items[#items + 1] = tostring(k) .. "=" .. tostring(v) end
table.sort(items)
print(table.concat(items, " "))
