-- yield works inside xpcall too, and the handler still runs on error
local co = coroutine.wrap(function()
  return xpcall(function()
    coroutine.yield("paused")
    error("boom", 0)
  end, function(m) return "handled " .. m end)
end)
print(co())
print(co())
