-- a library function called directly by pcall is named by its global name
print(pcall(string.rep))
print(pcall(math.floor, "a"))
