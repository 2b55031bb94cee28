-- string.sub with positive, negative and out-of-range indices
local s = "abcdef"
print(s:sub(2, 4), s:sub(3), s:sub(-2), s:sub(-3, -2))
print(s:sub(0), s:sub(10), s:sub(4, 2) == "")
print(s:sub(-100, 2), s:sub(2, 100))
print(s:sub(math.mininteger, math.maxinteger))
