-- malformed patterns raise errors
print(pcall(string.find, "a", "%"))
print(pcall(string.find, "a", "[a"))
print(pcall(string.find, "a", "(a"))
print(pcall(string.find, "a", "a)"))
print(pcall(string.find, "a", "%b"))
print(pcall(string.find, "a", "%f"))
print(pcall(string.find, "a", "%1"))
