-- %1 inside a pattern matches a copy of capture 1
print(string.match('say "hi" now', '(["\'])(.-)%1'))
print(string.find("abba", "(a)(b)%2%1"))
print(string.match("xyzxyz", "(x.z)%1"))
