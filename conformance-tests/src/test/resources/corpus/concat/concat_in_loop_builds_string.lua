-- repeated concatenation and string.rep give the same result
local s = ""
for i = 1, 100 do s = s .. "ab" end
print(#s, s == string.rep("ab", 100))
