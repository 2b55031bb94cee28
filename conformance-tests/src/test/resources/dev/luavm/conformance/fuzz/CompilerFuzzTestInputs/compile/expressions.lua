local a, b = 1, 2.5
local function f(x, ...) return x, ... end
print(f(a + b * 2 ^ -3 // 1 % 7, "s" .. 1))
