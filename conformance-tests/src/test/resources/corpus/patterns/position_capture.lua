-- () captures a position (an integer)
print(string.match("hello", "()ll()"))
print(math.type(string.match("x", "()")))
print(string.find("abc", "()b()"))
