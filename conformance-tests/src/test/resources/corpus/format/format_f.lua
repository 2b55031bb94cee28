-- %f fixed point with precision
print(string.format("%f", 3.14159))
print(string.format("%.2f", 3.14159))
print(string.format("%.0f", 2.5), string.format("%.0f", 3.5))
print(string.format("%10.3f|", -1.5))
print(string.format("%f", 10))
print(string.format("%.3f", 1/3))
