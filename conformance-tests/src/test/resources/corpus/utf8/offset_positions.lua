-- utf8.offset finds the byte position of the n-th character
local s = "a\u{E9}\u{20AC}b"
print(utf8.offset(s, 1), utf8.offset(s, 2), utf8.offset(s, 3), utf8.offset(s, 4), utf8.offset(s, 5))
print(utf8.offset(s, 6))
print(utf8.offset(s, -1), utf8.offset(s, -2))
print(utf8.offset(s, 0, 5))
