-- every arithmetic event: __add __sub __mul __div __mod __pow __idiv
local mt = {}
for _, ev in ipairs({"add", "sub", "mul", "div", "mod", "pow", "idiv"}) do
  mt["__" .. ev] = function(a, b) return ev end
end
local x = setmetatable({}, mt)
print(x + 1, x - 1, x * 1, x / 1, x % 1, x ^ 1, x // 1)
print(1 + x, 1 - x, 1 * x, 1 / x, 1 % x, 1 ^ x, 1 // x)
