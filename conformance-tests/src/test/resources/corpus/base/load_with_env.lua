-- load's fourth argument sets the chunk's environment
local f = load("return x, y", "env chunk", "t", {x = 1, y = 2})
print(f())
