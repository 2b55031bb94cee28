-- fixed parameters are filled first, the rest goes to '...'
local function f(a, b, ...)
  return a, b, select("#", ...), ...
end
print(f(1))
print(f(1, 2, 3, 4))
