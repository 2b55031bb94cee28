local x = 0 for i = 1, 10 do local function f() x = x + i return x end f() end print(x)
local fs = {} for i = 1, 3 do fs[i] = function() return i end end print(fs[1](), fs[3]())
