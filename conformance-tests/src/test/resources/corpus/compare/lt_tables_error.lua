-- tables and booleans without metamethods cannot be ordered
print(pcall(function() return {} < {} end))
print(pcall(function() return true <= false end))
print(pcall(function() return {} < 1 end))
print(pcall(function() return print < print end))
