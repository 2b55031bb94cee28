-- concatenation of strings
local a, b = "foo", "bar"
print(a .. b)
print(a .. "" .. b)
print(#(a .. b))
print("" .. "")
