-- trigonometric functions (formatted to avoid last-digit differences)
local function f(x) return string.format("%.6f", x) end
print(f(math.sin(0)), f(math.cos(0)), f(math.tan(math.pi / 4)))
print(f(math.asin(1)), f(math.acos(0)), f(math.atan(1)))
print(f(math.atan(1, -1)), f(math.atan(-1, -1)), f(math.atan(0, -1)))
print(math.sin(0), math.cos(0))
