-- a function may return a varying number of values
local function upto(n) local t = {} for i = 1, n do t[i] = i end return table.unpack(t) end
print(upto(0))
print(upto(3))
print(select("#", upto(5)))
