-- '|' with an integer and a float operand (either order): floats with an exact integer value are converted
local function check(a, b)
  local r = a | b
  print(a, b, math.type(r), r)
end
check(0xF0, 15.0)
check(1.0, 2)
check(-0.0, 1)
