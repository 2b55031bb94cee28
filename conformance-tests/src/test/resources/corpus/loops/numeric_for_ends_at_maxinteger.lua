-- a loop whose limit is math.maxinteger ends without overflowing
local n = 0
for i = math.maxinteger - 2, math.maxinteger do
  n = n + 1
  print(i)
end
print(n)
