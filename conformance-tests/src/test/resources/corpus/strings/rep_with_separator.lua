-- string.rep with count and optional separator
print(string.rep("ab", 3))
print(string.rep("ab", 3, ","))
print(string.rep("x", 0), string.rep("x", -1), string.rep("x", 1, ","))
print(#string.rep("", 1000000))
