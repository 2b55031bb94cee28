-- a coroutine cannot resume itself
local co
co = coroutine.create(function() return coroutine.resume(co) end)
print(coroutine.resume(co))
