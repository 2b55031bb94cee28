-- string.len counts bytes including zeros
print(string.len(""), string.len("abc"), string.len("a\0b\0"))
print(("x"):len())
