-- a closure can act as an iterator
local function range(n)
  local i = 0
  return function()
    i = i + 1
    if i <= n then return i end
  end
end
for v in range(4) do print(v) end
