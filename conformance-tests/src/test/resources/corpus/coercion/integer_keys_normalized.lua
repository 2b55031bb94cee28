-- float keys with an integral value are normalized to integer keys
local t = {}
t[1.0] = "one"
t[2] = "two"
print(t[1], t[2.0])
print(#t)
t[2^53] = "big"
print(t[1 << 53])
