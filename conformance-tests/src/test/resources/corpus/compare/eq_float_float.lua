-- '==' with two float operands: IEEE equality
local function check(a, b)
  print(a, b, a == b)
end
check(0.0, -0.0)
check(0.1 + 0.2, 0.3)
check(1/0, math.huge)
check(0.5, 0.5)
