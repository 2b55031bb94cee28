-- runtime errors in a wrapped coroutine carry the position of the fault
local f = coroutine.wrap(function() local n; return n + 1 end)
print(pcall(f))
