-- %e and %E scientific notation
print(string.format("%e", 12345.678))
print(string.format("%.2e", 0.000123))
print(string.format("%E", 1e100))
print(string.format("%e", 0))
