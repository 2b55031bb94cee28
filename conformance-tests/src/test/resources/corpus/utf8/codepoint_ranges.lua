-- utf8.codepoint returns code points of the characters in a byte range
local s = "a\u{E9}\u{20AC}"
print(utf8.codepoint(s))
print(utf8.codepoint(s, 2))
print(utf8.codepoint(s, 1, -1))
print(select("#", utf8.codepoint(s, 3, 2)))
