-- table.move copies a range, possibly overlapping or into another table
local t = {1, 2, 3, 4, 5}
table.move(t, 1, 3, 3)
print(table.concat(t, ","))
local u = {1, 2, 3, 4, 5}
table.move(u, 3, 5, 1)
print(table.concat(u, ","))
local dst = table.move({"a", "b"}, 1, 2, 2, {"x"})
print(table.concat(dst, ","))
print(#table.move({}, 1, 0, 1))
