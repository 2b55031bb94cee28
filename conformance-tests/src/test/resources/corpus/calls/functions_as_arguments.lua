-- functions are first-class values
local function apply(f, ...) return f(...) end
print(apply(math.max, 3, 9, 4))
print(apply(function(a, b) return a .. b end, "x", "y"))
local function compose(f, g) return function(...) return f(g(...)) end end
print(compose(string.upper, string.reverse)("abc"))
