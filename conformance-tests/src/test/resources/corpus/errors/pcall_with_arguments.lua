-- pcall passes extra arguments to the function
print(pcall(math.max, 1, 5, 3))
print(pcall(string.rep, "ab", 3))
