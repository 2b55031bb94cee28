-- '<<' with two integer operands: left shift; shifts of 64 or more give 0, negative shifts go right
local function check(a, b)
  local r = a << b
  print(a, b, math.type(r), r)
end
check(1, 4)
check(1, 62)
check(1, 63)
check(1, 64)
check(-1, 1)
check(1, -1)
check(8, -2)
check(1, 100)
check(3, 0)
