-- yielding inside __concat
local t = setmetatable({}, {__concat = function(a, b) return coroutine.yield("concat") end})
local co = coroutine.wrap(function() return "x" .. t .. "y" end)
print(co())
print(co("middle"))
