-- '~' with string operands converted to numbers: strings are converted to integers
local function q(v)
  if type(v) == 'string' then return string.format('%q', v) end
  return tostring(v)
end
local function check(a, b)
  local r = a ~ b
  print(q(a), q(b), math.type(r), r)
end
check("5", "3")
check("0xF", 1)
check("2.0", 3)
