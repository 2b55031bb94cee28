-- table.pack records the count in field n, keeping nils
local t = table.pack(1, nil, 3, nil)
print(t.n, t[1], t[2], t[3], t[4])
print(table.pack().n)
