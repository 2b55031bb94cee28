-- errors inside a wrapped coroutine propagate to the caller
local f = coroutine.wrap(function() error("inside wrap") end)
print(pcall(f))
local g = coroutine.wrap(function() error({tag = "t"}) end)
local ok, e = pcall(g)
print(ok, e.tag)
