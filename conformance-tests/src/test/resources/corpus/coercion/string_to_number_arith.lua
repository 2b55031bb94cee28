-- numeric strings are converted in arithmetic; in 5.3 the result is a float
print("10" + 1, math.type("10" + 1))
print("0x10" + 0)
print("1e1" + 0)
print(" 10 " + 0)
print("10" * "2")
