-- '~=' with two string operands: byte-wise inequality
local function q(v)
  if type(v) == 'string' then return string.format('%q', v) end
  return tostring(v)
end
local function check(a, b)
  print(q(a), q(b), a ~= b)
end
check("x", "x")
check("x", "y")
