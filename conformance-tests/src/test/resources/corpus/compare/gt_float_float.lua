-- '>' with two float operands: IEEE ordering
local function check(a, b)
  print(a, b, a > b)
end
check(2.5, 1.5)
check(math.huge, 1e308)
