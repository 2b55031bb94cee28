-- math functions require numbers
print(pcall(function() return math.abs(nil) end))
print(pcall(function() return math.sqrt("four") end))
