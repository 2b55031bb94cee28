-- starting at math.mininteger and counting up works
local n = 0
for i = math.mininteger, math.mininteger + 2 do n = n + 1 end
print(n)
