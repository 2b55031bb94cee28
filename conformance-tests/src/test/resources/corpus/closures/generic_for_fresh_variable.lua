-- each iteration of a generic for has fresh variables
local fs = {}
for i, v in ipairs({"a", "b", "c"}) do fs[i] = function() return i .. v end end
print(fs[1](), fs[2](), fs[3]())
