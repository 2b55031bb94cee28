-- a yield deep in nested Lua calls suspends the whole coroutine
local function deep(n) if n == 0 then return coroutine.yield("bottom") end return deep(n - 1) end
local co = coroutine.create(function() return "result " .. deep(50) end)
print(coroutine.resume(co))
print(coroutine.resume(co, "up"))
