-- '==' with two string operands: byte-wise equality
local function q(v)
  if type(v) == 'string' then return string.format('%q', v) end
  return tostring(v)
end
local function check(a, b)
  print(q(a), q(b), a == b)
end
check("a", "a")
check("a", "A")
check("1.0", "1")
check("a\0b", "a\0c")
check("", "")
