-- \z skips the following whitespace including newlines
local s = "abc\z
           def"
print(s)
print("x\z    y")
