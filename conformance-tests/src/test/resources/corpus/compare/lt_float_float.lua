-- '<' with two float operands: IEEE ordering
local function check(a, b)
  print(a, b, a < b)
end
check(1.5, 2.5)
check(-0.0, 0.0)
check(-math.huge, -1e308)
check(0.1, 0.1)
