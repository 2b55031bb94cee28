-- '>>' with two integer operands: logical right shift (zero fill); negative shifts go left
local function check(a, b)
  local r = a >> b
  print(a, b, math.type(r), r)
end
check(256, 4)
check(-1, 1)
check(-1, 63)
check(-1, 64)
check(1, -3)
check(math.mininteger, 63)
check(5, 0)
