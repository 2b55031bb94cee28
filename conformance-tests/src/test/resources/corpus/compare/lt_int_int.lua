-- '<' with two integer operands: integer ordering
local function check(a, b)
  print(a, b, a < b)
end
check(1, 2)
check(2, 1)
check(-3, -3)
check(math.mininteger, math.maxinteger)
