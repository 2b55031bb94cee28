-- %c formats a byte
print(string.format("%c%c%c", 76, 117, 97))
print(string.format("%c", 0):byte())
