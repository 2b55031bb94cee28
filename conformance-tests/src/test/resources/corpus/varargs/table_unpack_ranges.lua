-- table.unpack with explicit ranges, including nil holes
local t = {1, 2, 3, 4, 5}
print(table.unpack(t))
print(table.unpack(t, 2, 4))
print(table.unpack(t, 4))
print(table.unpack({1, nil, 3}, 1, 3))
print(select("#", table.unpack({}, 1, 3)))
print(table.unpack(t, 3, 2))
