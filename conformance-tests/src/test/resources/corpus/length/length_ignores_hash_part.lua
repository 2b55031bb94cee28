-- '#' does not count string keys
local t = {a = 1, b = 2, c = 3}
print(#t)
t[1] = "x"
print(#t)
