-- strings share a metatable whose __index is the string table
print(getmetatable("").__index == string)
print(("abc"):upper(), ("x"):rep(3))
local s = "hello"
print(s:len(), s:sub(2, 3))
