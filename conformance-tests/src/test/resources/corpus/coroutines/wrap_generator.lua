-- coroutine.wrap returns a function that resumes the coroutine
local gen = coroutine.wrap(function()
  for i = 1, 3 do coroutine.yield(i) end
  return "end"
end)
print(gen(), gen(), gen(), gen())
