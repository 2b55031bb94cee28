-- error(msg) adds the position of the error call (level 1)
local function f() error("boom") end
print(pcall(f))
