-- {...} collects all values, but # may stop at a nil; use select('#')
local function f(...)
  local t = {...}
  return #t, select("#", ...)
end
print(f(1, 2, 3))
print(f())
