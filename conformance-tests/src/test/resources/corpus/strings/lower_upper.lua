-- lower/upper only change ASCII letters (C locale)
print(string.lower("HeLLo 123!"), string.upper("HeLLo 123!"))
print(string.upper("\0a"):byte(1, -1))
