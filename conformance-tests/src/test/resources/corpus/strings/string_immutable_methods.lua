-- string functions return new strings and leave the original unchanged
local s = "abc"
local u = s:upper()
print(s, u)
