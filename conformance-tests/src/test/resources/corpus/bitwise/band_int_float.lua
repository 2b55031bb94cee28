-- '&' with an integer and a float operand (either order): floats with an exact integer value are converted
local function check(a, b)
  local r = a & b
  print(a, b, math.type(r), r)
end
check(0xF0, 60.0)
check(3.0, 5)
check(-1, 255.0)
