-- gmatch with a pattern that can match empty strings
local out = {}
for m in string.gmatch("abc", "x*") do out[#out + 1] = "[" .. m .. "]" end
print(table.concat(out))
