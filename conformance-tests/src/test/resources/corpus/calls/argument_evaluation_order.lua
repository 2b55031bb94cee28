-- arguments are evaluated left to right in PUC Lua
local log = {}
local function v(x) log[#log + 1] = x; return x end
local function f(...) return select("#", ...) end
f(v(1), v(2), v(3))
print(table.concat(log, " "))
