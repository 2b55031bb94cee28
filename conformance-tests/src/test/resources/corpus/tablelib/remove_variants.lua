-- table.remove removes the last element or a given position
local t = {1, 2, 3, 4}
print(table.remove(t), table.concat(t, ","))
print(table.remove(t, 1), table.concat(t, ","))
print(table.remove({}))
print(#t, table.remove(t, #t + 1))
print(pcall(function() return table.remove({1, 2, 3}, 7) end))
