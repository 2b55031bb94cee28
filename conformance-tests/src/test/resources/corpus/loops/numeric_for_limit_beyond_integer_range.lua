-- float limits outside the integer range are clipped
local n = 0
for i = math.maxinteger - 1, 1e300 do n = n + 1 end
print(n)
for i = 1, -1e300 do print("never") end
print("ok")
