-- '...' not at the end of a list gives only its first value
local function f(...)
  print(..., "end")
  local a, b, c = ..., "x"
  print(a, b, c)
end
f(1, 2, 3)
