-- '..' is right associative; a long chain works
local s = "a" .. "b" .. "c" .. 1 .. 2
print(s)
local t = {}
for i = 1, 20 do t[#t + 1] = i end
print(table.concat(t, ".."))
local x = ""
for i = 1, 10 do x = x .. i end
print(x)
