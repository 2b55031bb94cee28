-- math.type distinguishes integer, float and non-numbers
print(math.type(1), math.type(1.0), math.type("1"), math.type(nil))
print(pcall(math.type))
