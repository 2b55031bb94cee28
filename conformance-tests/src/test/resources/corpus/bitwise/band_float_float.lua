-- '&' with two float operands: floats with an exact integer value are converted
local function check(a, b)
  local r = a & b
  print(a, b, math.type(r), r)
end
check(12.0, 10.0)
check(-1.0, 2.0^31)
check(2^53, 2^53)
