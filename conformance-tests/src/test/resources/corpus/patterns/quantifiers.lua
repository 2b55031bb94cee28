-- * + - ? quantifiers: greedy and lazy
print(string.match("aaab", "a*"))
print(string.match("aaab", "a+b"))
print(string.match("<a><b>", "<.->"))
print(string.match("<a><b>", "<.*>"))
print(string.match("color colour", "colou?r"))
print(string.match("b", "a*"), #string.match("b", "a*"))
