local co = coroutine.wrap(function(...) local x = coroutine.yield(...) for i = 1, 3 do coroutine.yield(i) end return x end)
print(co(1, 2), co("a"), co(), co(), co())
print(coroutine.resume(coroutine.create(function() error({}) end)))
