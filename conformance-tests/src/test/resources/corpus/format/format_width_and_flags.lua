-- width, '-', '0', '+', ' ' and '#' flags
print(string.format("[%5d]", 42))
print(string.format("[%-5d]", 42))
print(string.format("[%05d]", -42))
print(string.format("[%+d] [% d]", 5, 5))
print(string.format("[%#x] [%#o]", 255, 8))
print(string.format("[%.3d]", 7))
