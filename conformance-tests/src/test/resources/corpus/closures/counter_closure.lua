-- a closure keeps its upvalue alive between calls
local function counter()
  local n = 0
  return function() n = n + 1; return n end
end
local c1, c2 = counter(), counter()
print(c1(), c1(), c1())
print(c2())
