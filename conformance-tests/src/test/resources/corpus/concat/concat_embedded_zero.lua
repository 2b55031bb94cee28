-- strings may contain zero bytes and keep them through concatenation
local s = "a\0" .. "\0b"
print(#s)
print(s:byte(1, -1))
