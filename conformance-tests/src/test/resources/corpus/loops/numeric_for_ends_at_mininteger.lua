-- a descending loop whose limit is math.mininteger ends without overflowing
local n = 0
for i = math.mininteger + 2, math.mininteger, -1 do
  n = n + 1
  print(i)
end
print(n)
