-- '~=' with two integer operands: negation of '=='
local function check(a, b)
  print(a, b, a ~= b)
end
check(1, 1)
check(1, 2)
check(-1, 1)
