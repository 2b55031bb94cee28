-- %g and %G choose between fixed and exponent notation
print(string.format("%g", 100000))
print(string.format("%g", 1000000))
print(string.format("%g", 0.0001))
print(string.format("%g", 0.00001))
print(string.format("%G", 1e-10))
print(string.format("%.3g", 3.14159))
print(string.format("%g", 2^53))
