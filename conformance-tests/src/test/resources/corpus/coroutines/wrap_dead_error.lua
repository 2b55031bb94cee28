-- calling a finished wrapped coroutine is an error
local f = coroutine.wrap(function() return 1 end)
print(f())
print(pcall(f))
