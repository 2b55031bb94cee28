-- __name is used in error messages and by tostring
local x = setmetatable({}, {__name = "MyType"})
print(pcall(function() return x() end))
print(pcall(function() return x + 1 end))
print(pcall(function() return x < 1 end))
print(tostring(x):match("^MyType: ") ~= nil)
