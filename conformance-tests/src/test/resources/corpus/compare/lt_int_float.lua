-- '<' with an integer and a float operand (either order): compared by exact mathematical value
local function check(a, b)
  print(a, b, a < b)
end
check(1, 1.5)
check(2, 1.5)
check(math.maxinteger, 2^63)
check(-1, -0.5)
check(3, math.huge)
check(math.mininteger, -2^63)
check(9007199254740993, 2^53)
