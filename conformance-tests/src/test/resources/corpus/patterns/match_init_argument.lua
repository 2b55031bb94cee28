-- string.match honours an init position, negative counting from the end
print(string.match("abc123def456", "%d+", 7))
print(string.match("abc123def456", "%d+", -2))
print(string.match("abc", "^b", 2))
