-- in 5.3 a coroutine can yield from inside pcall
local co = coroutine.create(function()
  local ok, v = pcall(function()
    local got = coroutine.yield("from inside pcall")
    error("after resume: " .. got, 0)
  end)
  return ok, v
end)
print(coroutine.resume(co))
print(coroutine.resume(co, "x"))
