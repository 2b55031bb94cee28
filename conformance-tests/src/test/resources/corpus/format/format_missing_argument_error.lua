-- a missing argument is reported with its position
print(pcall(function() return string.format("%d %d", 1) end))
print(pcall(function() return string.format("%s") end))
