-- positions are clipped to the string
print(string.byte("abc", 0, 10))
print(string.byte("abc", -10, 1))
