-- ipairs returns an iterator, the table and 0
local t = {}
local f, s, c = ipairs(t)
print(type(f), s == t, c)
print(f(t, 0))
print(f({"x"}, 0))
