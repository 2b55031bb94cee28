-- '#' on a proper sequence returns its last index
print(#{}, #{1, 2, 3}, #{"a", "b"})
local t = {}
for i = 1, 100 do t[i] = i end
print(#t)
t[#t] = nil
print(#t)
t[#t + 1] = "x"
print(#t)
