-- table.concat with separator and range
local t = {1, 2, 3, "x", 4.5}
print(table.concat(t))
print(table.concat(t, ", "))
print(table.concat(t, "-", 2, 4))
print(table.concat(t, "-", 4, 2) == "")
print(table.concat({}, "x"))
