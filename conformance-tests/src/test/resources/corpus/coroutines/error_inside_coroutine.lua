-- an error kills the coroutine and resume returns false plus the message
local co = coroutine.create(function() local x = nil; return x.y end)
print(coroutine.resume(co))
print(coroutine.status(co))
local co2 = coroutine.create(function() error({code = 7}) end)
local ok, e = coroutine.resume(co2)
print(ok, e.code)
