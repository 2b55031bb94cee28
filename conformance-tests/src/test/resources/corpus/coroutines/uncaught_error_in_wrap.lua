-- an uncaught error from a wrapped coroutine ends the script
local f = coroutine.wrap(function() error("from coroutine") end)
print("calling")
f()
