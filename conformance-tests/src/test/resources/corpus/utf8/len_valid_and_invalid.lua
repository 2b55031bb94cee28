-- utf8.len counts characters, or returns nil and the first bad position
print(utf8.len("h\u{E9}llo"))
print(utf8.len(""))
print(utf8.len("ab\255cd"))
print(utf8.len("\u{20AC}\u{20AC}", 4))
print(utf8.len("abc", 2, 2))
print(pcall(utf8.len, "abc", 5))
