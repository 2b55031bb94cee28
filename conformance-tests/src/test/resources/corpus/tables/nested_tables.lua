-- tables can be nested and indexed in chains
local t = {a = {b = {c = "deep"}}, {1, {2, 3}}}
print(t.a.b.c, t[1][2][2])
t.a.b.d = "new"
print(t["a"]["b"]["d"])
