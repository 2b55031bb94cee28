-- '<' with two string operands: lexicographic byte order (C locale)
local function q(v)
  if type(v) == 'string' then return string.format('%q', v) end
  return tostring(v)
end
local function check(a, b)
  print(q(a), q(b), a < b)
end
check("a", "b")
check("abc", "abd")
check("Z", "a")
check("10", "9")
check("", "a")
check("ab", "abc")
check("a\0b", "a\0c")
check("a\0", "a")
