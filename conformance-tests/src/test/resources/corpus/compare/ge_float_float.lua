-- '>=' with two float operands: IEEE ordering
local function check(a, b)
  print(a, b, a >= b)
end
check(0.0, -0.0)
check(1.5, 2.5)
