-- resuming a finished coroutine fails
local co = coroutine.create(function() return "done" end)
print(coroutine.resume(co))
print(coroutine.status(co))
print(coroutine.resume(co))
