-- '|' with string operands converted to numbers: strings are converted to integers
local function q(v)
  if type(v) == 'string' then return string.format('%q', v) end
  return tostring(v)
end
local function check(a, b)
  local r = a | b
  print(q(a), q(b), math.type(r), r)
end
check("8", 1)
check("0x10", "0x01")
check("1e1", 1)
