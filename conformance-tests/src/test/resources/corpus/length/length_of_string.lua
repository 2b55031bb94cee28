-- '#' on strings counts bytes
print(#"", #"a", #"hello")
print(#"a\0b")
print(#"\u{20AC}")
local s = "xyz"
print(#s + 1)
