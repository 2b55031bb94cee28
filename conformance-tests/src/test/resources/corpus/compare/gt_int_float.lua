-- '>' with an integer and a float operand (either order): compared by exact mathematical value
local function check(a, b)
  print(a, b, a > b)
end
check(2, 1.5)
check(2^63, math.maxinteger)
check(0, -0.0)
