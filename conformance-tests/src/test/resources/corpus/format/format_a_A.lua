-- %a and %A hexadecimal floating point
print(string.format("%a", 1.0))
print(string.format("%a", 0.5))
print(string.format("%A", 255.5))
print(string.format("%a", -0.1))
print(string.format("%a", 0.0))
