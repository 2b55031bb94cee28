-- yielding inside an __index function is allowed
local t = setmetatable({}, {__index = function(_, k) return coroutine.yield("need " .. k) end})
local co = coroutine.wrap(function() return "value: " .. t.foo end)
print(co())
print(co("bar"))
