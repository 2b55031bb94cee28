-- (...) is adjusted to one value
local function f(...) return (...) end
print(f(1, 2, 3))
print(f())
print(select("#", f()))
