-- '&' with two integer operands: bitwise and
local function check(a, b)
  local r = a & b
  print(a, b, math.type(r), r)
end
check(0xF0, 0x3C)
check(-1, 0xFF)
check(5, 3)
check(0, -1)
check(math.mininteger, -1)
