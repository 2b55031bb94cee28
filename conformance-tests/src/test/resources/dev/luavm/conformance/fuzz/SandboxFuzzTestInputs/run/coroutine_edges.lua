local co co = coroutine.create(function() return coroutine.resume(co) end) print(coroutine.resume(co))
print(coroutine.isyieldable(), coroutine.running())
local function gen(n) return coroutine.wrap(function() for i = 1, n do coroutine.yield(i) end end) end
for v in gen(3) do print(v) end
