-- the second operand is evaluated only when needed
local calls = 0
local function f() calls = calls + 1; return true end
local _ = false and f()
local _ = true or f()
print(calls)
local _ = true and f()
local _ = false or f()
print(calls)
