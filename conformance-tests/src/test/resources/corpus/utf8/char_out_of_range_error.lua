-- utf8.char rejects negative or too large values
print(pcall(function() return utf8.char(-1) end))
print(pcall(function() return utf8.char(0x80000000) end))
