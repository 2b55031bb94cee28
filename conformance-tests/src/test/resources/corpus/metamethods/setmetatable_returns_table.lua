-- setmetatable returns its first argument; getmetatable of plain table is nil
local t = {}
print(setmetatable(t, {}) == t)
print(getmetatable({}))
print(getmetatable(setmetatable(t, nil)))
print(pcall(setmetatable, t, 1))
print(pcall(setmetatable, 1, {}))
