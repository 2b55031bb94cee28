-- yielding from a C function without continuation (table.sort comparator) fails
local co = coroutine.create(function()
  table.sort({3, 2, 1}, function(a, b) coroutine.yield() return a < b end)
end)
print(coroutine.resume(co))
