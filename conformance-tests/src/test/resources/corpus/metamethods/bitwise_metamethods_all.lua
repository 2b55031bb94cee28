-- every bitwise event: __band __bor __bxor __shl __shr __bnot
local mt = {}
for _, ev in ipairs({"band", "bor", "bxor", "shl", "shr", "bnot"}) do
  mt["__" .. ev] = function(a, b) return ev end
end
local x = setmetatable({}, mt)
print(x & 1, x | 1, x ~ 1, x << 1, x >> 1, ~x)
print(1 & x, 1 | x, 1 ~ x, 1 << x, 1 >> x)
