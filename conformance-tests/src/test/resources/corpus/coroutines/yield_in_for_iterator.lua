-- a generic-for iterator function may yield
local function iter(_, i)
  i = i + 1
  if i > 3 then return nil end
  coroutine.yield("iterating " .. i)
  return i
end
local co = coroutine.wrap(function()
  local sum = 0
  for i in iter, nil, 0 do sum = sum + i end
  return "sum " .. sum
end)
for _ = 1, 4 do print(co()) end
