-- handles nobody closes: the collector closes them, so opening many never runs out
for i = 1, 300 do
  local f = io.open("data/plain.txt")
  assert(f, "open " .. i)
  f:read("l")
end
local kept = {}
for i = 1, 20 do kept[i] = io.open("data/plain.txt") end
print("kept", #kept, io.type(kept[20]))
for i = 1, 20 do kept[i]:close() end
for i = 1, 120 do
  local w = io.open("out/gc" .. i .. ".txt", "w")
  w:write(i)
end
collectgarbage()
local sum = 0
for i = 1, 120 do
  local f = io.open("out/gc" .. i .. ".txt")
  sum = sum + f:read("n")
  f:close()
end
print(sum)
