-- string.char builds a string from codes
print(string.char(72, 105))
print(#string.char())
print(string.char(0, 255):byte(1, -1))
