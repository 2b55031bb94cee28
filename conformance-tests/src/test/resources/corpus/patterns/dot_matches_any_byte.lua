-- '.' matches any byte including zero and newline
print(#string.match("a\0b\nc", ".+"))
print(string.find("\n", "."))
