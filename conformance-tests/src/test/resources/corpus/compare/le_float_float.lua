-- '<=' with two float operands: IEEE ordering
local function check(a, b)
  print(a, b, a <= b)
end
check(-0.0, 0.0)
check(2.5, 2.4)
check(1e308, math.huge)
