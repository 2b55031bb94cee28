-- __tostring is used by tostring and print
local t = setmetatable({}, {__tostring = function(self) return "custom!" end})
print(t)
print(tostring(t))
print(string.format("%s", t))
