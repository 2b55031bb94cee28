-- '>' with two integer operands: a > b is b < a
local function check(a, b)
  print(a, b, a > b)
end
check(2, 1)
check(1, 2)
check(0, 0)
