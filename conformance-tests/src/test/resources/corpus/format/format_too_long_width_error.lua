-- widths and precisions are limited to two digits
print(pcall(string.format, "%100d", 1))
print(pcall(string.format, "%.100f", 1))
print(string.format("%99d", 1):len())
