-- %d rejects floats without an integer representation
print(pcall(function() return string.format("%d", 3.5) end))
print(pcall(function() return string.format("%d", "x") end))
print(pcall(function() return string.format("%d", 2^63) end))
