local x = 1 local function g() local y = x return function() return x + y end end
local a, b, c = g()()
