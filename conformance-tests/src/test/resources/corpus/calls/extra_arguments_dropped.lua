-- extra arguments are discarded, missing parameters are nil
local function f(a, b) return a, b end
print(f(1, 2, 3))
print(f(1))
print(f())
