-- extra arguments to string.format are ignored
print(string.format("%d", 1, 2, 3))
print(string.format("no specifiers", "ignored"))
