-- '~=' with two float operands: IEEE inequality
local function check(a, b)
  print(a, b, a ~= b)
end
check(0.0, -0.0)
check(0.1 + 0.2, 0.3)
