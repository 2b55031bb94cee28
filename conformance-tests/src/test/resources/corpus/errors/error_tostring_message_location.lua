-- error() with a non-string value ignores the level
print(pcall(error, true, 1))
print(pcall(error, 3.5, 2))
