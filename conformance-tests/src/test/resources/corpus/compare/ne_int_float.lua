-- '~=' with an integer and a float operand (either order): exact mathematical value
local function check(a, b)
  print(a, b, a ~= b)
end
check(1, 1.0)
check(3, 3.5)
check(math.maxinteger, 2^63)
