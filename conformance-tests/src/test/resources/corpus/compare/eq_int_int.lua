-- '==' with two integer operands: integer equality
local function check(a, b)
  print(a, b, a == b)
end
check(1, 1)
check(1, 2)
check(-0, 0)
check(math.mininteger, math.mininteger)
