-- backslash escapes for control characters, quotes and backslash
local s = "a\tb\\c\"d'e\'f"
print(s)
print(("\a\b\f\n\r\t\v"):byte(1, -1))
print(#"\n", "x\
y" == "x\ny")
