-- '^' anchors at the start, '$' at the end
print(string.match("hello", "^h"), string.match("hello", "^e"))
print(string.match("hello", "o$"), string.match("hello", "l$"))
print(string.find("a$b", "$b"))
print(string.match("abc", "^abc$"))
print(string.gsub("aaa", "^a", "X"))
