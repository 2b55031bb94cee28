-- status: suspended, running, normal, dead
local co
local outer = coroutine.create(function()
  print("inside outer:", coroutine.status(outer))
  coroutine.resume(co)
end)
co = coroutine.create(function()
  print("inner sees outer as:", coroutine.status(outer))
  coroutine.yield()
end)
print(coroutine.status(outer))
coroutine.resume(outer)
print(coroutine.status(outer), coroutine.status(co))
