-- pairs(t) returns next, t, nil when there is no __pairs
local f, s, c = pairs({})
print(f == next, type(s), c)
