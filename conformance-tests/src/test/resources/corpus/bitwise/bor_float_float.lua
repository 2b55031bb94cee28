-- '|' with two float operands: floats with an exact integer value are converted
local function check(a, b)
  local r = a | b
  print(a, b, math.type(r), r)
end
check(8.0, 1.0)
check(2^62, 2^62)
check(-4.0, 3.0)
