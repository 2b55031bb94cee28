-- table.sort sorts numbers and strings ascending with '<'
local n = {5, 2, 8, 1, 9, 3}
table.sort(n)
print(table.concat(n, " "))
local s = {"pear", "apple", "fig", "Banana"}
table.sort(s)
print(table.concat(s, " "))
local mixed = {3, 1.5, -2, 2^53}
table.sort(mixed)
print(table.concat(mixed, " "))
