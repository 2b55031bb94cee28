-- string values have methods through the string metatable
local s = "Hello"
print(s:lower(), s:upper(), s:len())
print(("%d items"):format(3))
print(#s:rep(3, ","))
