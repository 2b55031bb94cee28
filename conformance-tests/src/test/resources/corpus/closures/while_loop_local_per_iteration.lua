-- a local declared inside a while body is new on each iteration
local fs = {}
local i = 1
while i <= 3 do
  local j = i
  fs[i] = function() return j end
  i = i + 1
end
print(fs[1](), fs[2](), fs[3]())
