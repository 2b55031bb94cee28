-- %q with numbers: integers in decimal, floats in hex (5.3), mininteger in hex
print(string.format("%q", 42))
print(string.format("%q", -7))
print(string.format("%q", 1.5))
print(string.format("%q", 0.1))
print(string.format("%q", math.mininteger))
print(string.format("%q", 1/0))
