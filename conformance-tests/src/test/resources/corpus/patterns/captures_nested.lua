-- nested captures are numbered by their opening parenthesis
print(string.match("abcd", "((a)(b)c)d"))
