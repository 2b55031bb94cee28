-- __metatable hides the metatable and forbids changing it
local t = setmetatable({}, {__metatable = "locked"})
print(getmetatable(t))
print(pcall(setmetatable, t, {}))
print(pcall(setmetatable, t, nil))
