-- constructors mix positional items, [expr] = v and name = v
local t = {10, 20, x = "x", ["y z"] = "yz", [3 + 1] = 40, 30}
print(t[1], t[2], t[3], t[4])
print(t.x, t["y z"])
print(#t)
