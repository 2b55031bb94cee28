-- escapes are not interpreted inside long strings
local s = [[a\nb]]
print(s, #s)
