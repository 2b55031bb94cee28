-- t[#t+1] appends to a sequence
local t = {}
for i = 1, 5 do t[#t + 1] = i * i end
print(#t, table.concat(t, " "))
