-- '<=' with an integer and a float operand (either order): compared by exact mathematical value
local function check(a, b)
  print(a, b, a <= b)
end
check(2, 2.0)
check(2, 1.9)
check(math.maxinteger, 2^63)
check(math.mininteger, -2^63)
