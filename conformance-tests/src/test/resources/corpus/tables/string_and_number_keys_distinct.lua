-- "1" and 1 are different keys; 1 and 1.0 are the same key
local t = {}
t[1] = "int"
t["1"] = "str"
t[1.0] = "float replaced int"
print(t[1], t["1"])
