-- tostring of a string is the same string; string.format('%s') too
local s = "same"
print(tostring(s) == s, string.format("%s", s) == s)
