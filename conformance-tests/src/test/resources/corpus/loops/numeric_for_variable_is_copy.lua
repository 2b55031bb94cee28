-- changing the loop variable does not affect the iteration count
local count = 0
for i = 1, 3 do
  i = i * 10
  count = count + 1
  print(i)
end
print(count)
