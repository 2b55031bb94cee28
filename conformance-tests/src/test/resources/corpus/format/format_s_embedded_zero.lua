-- %s keeps embedded zeros when no width/precision is given
local r = string.format("%s|", "a\0b")
print(#r, r:byte(1, -1))
