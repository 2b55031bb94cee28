-- '~' with an integer and a float operand (either order): floats with an exact integer value are converted
local function check(a, b)
  local r = a ~ b
  print(a, b, math.type(r), r)
end
check(5, 3.0)
check(6.0, -1)
