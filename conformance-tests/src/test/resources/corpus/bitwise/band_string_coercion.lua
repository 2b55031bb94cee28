-- '&' with string operands converted to numbers: strings are converted to integers
local function q(v)
  if type(v) == 'string' then return string.format('%q', v) end
  return tostring(v)
end
local function check(a, b)
  local r = a & b
  print(q(a), q(b), math.type(r), r)
end
check("12", 10)
check("0x0F", "0xFF")
check("3.0", 1)
check(" 7 ", 3)
