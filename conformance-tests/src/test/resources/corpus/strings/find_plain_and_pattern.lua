-- string.find returns start and end positions
print(string.find("hello world", "wor"))
print(string.find("hello world", "o", 6))
print(string.find("hello", "xyz"))
print(string.find("a.b", ".", 1, true))
print(string.find("a.b", "%."))
print(string.find("abc", ""))
print(string.find("abc", "", 10))
