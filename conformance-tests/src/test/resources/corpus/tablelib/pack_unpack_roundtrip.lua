-- table.pack and table.unpack are inverses when n is used
local p = table.pack("a", nil, "c")
print(p.n, table.unpack(p, 1, p.n))
