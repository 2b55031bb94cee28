-- isyieldable is false in the main thread and true inside a coroutine
print(coroutine.isyieldable())
print(coroutine.wrap(function() return coroutine.isyieldable() end)())
