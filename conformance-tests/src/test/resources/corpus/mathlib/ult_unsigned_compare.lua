-- math.ult compares as unsigned integers
print(math.ult(1, 2), math.ult(-1, 2), math.ult(2, -1))
print(math.ult(math.maxinteger, math.mininteger))
print(pcall(math.ult, 1.5, 2))
