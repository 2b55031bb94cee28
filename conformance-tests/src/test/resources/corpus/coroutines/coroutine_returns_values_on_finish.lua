-- return values of the body come back from the final resume
local co = coroutine.create(function() return 1, 2, 3 end)
print(coroutine.resume(co))
