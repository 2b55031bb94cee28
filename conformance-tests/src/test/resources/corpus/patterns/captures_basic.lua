-- captures return the matched substrings
print(string.match("2024-01-15", "(%d+)-(%d+)-(%d+)"))
print(string.match("key = value", "(%w+)%s*=%s*(%w+)"))
print(string.match("nothing", "(%d+)"))
