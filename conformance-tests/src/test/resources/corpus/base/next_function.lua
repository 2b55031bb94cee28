-- next returns the next key/value, or nil at the end
print(next({}))
local t = {10}
print(next(t))
print(next(t, 1))
print(pcall(next, t, "nokey"))
