-- '|' with two integer operands: bitwise or
local function check(a, b)
  local r = a | b
  print(a, b, math.type(r), r)
end
check(0xF0, 0x0F)
check(1, 2)
check(0, 0)
check(math.mininteger, 1)
check(-2, 1)
