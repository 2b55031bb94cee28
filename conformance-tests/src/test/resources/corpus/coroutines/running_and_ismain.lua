-- coroutine.running returns the thread and whether it is the main one
local main, ismain = coroutine.running()
print(type(main), ismain)
local co = coroutine.create(function()
  local t, m = coroutine.running()
  return type(t), m
end)
print(coroutine.resume(co))
