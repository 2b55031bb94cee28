-- '>' with two string operands: lexicographic byte order
local function q(v)
  if type(v) == 'string' then return string.format('%q', v) end
  return tostring(v)
end
local function check(a, b)
  print(q(a), q(b), a > b)
end
check("b", "a")
check("a", "b")
check("aa", "a")
