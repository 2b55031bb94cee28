-- table.sort with a custom comparator
local t = {5, 2, 8, 1, 9, 3}
table.sort(t, function(a, b) return a > b end)
print(table.concat(t, " "))
local recs = {{n = "b", a = 2}, {n = "a", a = 3}, {n = "c", a = 1}}
table.sort(recs, function(x, y) return x.a < y.a end)
print(recs[1].n, recs[2].n, recs[3].n)
