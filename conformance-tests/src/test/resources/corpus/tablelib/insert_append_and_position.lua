-- table.insert appends or inserts at a position, shifting elements up
local t = {"a", "c"}
table.insert(t, "d")
table.insert(t, 2, "b")
table.insert(t, 1, "start")
print(table.concat(t, " "))
table.insert(t, #t + 1, "end")
print(table.concat(t, " "))
