-- unknown conversions raise an error
print(pcall(string.format, "%y", 1))
print(pcall(string.format, "%", 1))
print(pcall(function() return string.format("%10.q", "x") end))
