-- locals in a repeat body are fresh each iteration and visible to until
local fs = {}
local n = 0
repeat
  n = n + 1
  local k = n
  fs[#fs + 1] = function() return k end
until k >= 3
print(fs[1](), fs[2](), fs[3]())
