-- '==' with a string and a number operand: strings are never equal to numbers (no coercion)
local function q(v)
  if type(v) == 'string' then return string.format('%q', v) end
  return tostring(v)
end
local function check(a, b)
  print(q(a), q(b), a == b)
end
check("1", 1)
check(1, "1")
check("1.0", 1.0)
