-- '~' with two integer operands: bitwise exclusive or
local function check(a, b)
  local r = a ~ b
  print(a, b, math.type(r), r)
end
check(5, 3)
check(-1, 0)
check(0xFF, 0x0F)
check(math.maxinteger, -1)
