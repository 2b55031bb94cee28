-- numeric strings are converted to integers by bitwise operators
print("10" | 0, math.type("10" | 0))
print("0x10" & 0xFF)
print("2.0" << 1)
print(pcall(function() return "2.5" | 0 end))
print(pcall(function() return "x" | 0 end))
