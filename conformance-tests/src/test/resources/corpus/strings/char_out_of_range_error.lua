-- string.char rejects values outside 0..255
print(pcall(function() return string.char(256) end))
print(pcall(function() return string.char(65, -1) end))
print(pcall(function() return string.char("x") end))
