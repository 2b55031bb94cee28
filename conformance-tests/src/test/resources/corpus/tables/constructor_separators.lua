-- items may be separated by ',' or ';' and a trailing separator is allowed
local t = {1; 2, 3;}
print(#t, t[1], t[2], t[3])
local u = {"a",}
print(#u)
print(#{})
