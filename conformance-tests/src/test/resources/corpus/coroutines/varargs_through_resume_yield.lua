-- any number of values (including nils) pass through resume/yield
local co = coroutine.create(function(...)
  print(select("#", ...))
  print(select("#", coroutine.yield(nil, nil, nil)))
  return
end)
print(select("#", coroutine.resume(co, nil, nil)))
print(select("#", coroutine.resume(co)))
