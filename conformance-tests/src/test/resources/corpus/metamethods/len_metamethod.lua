-- __len overrides '#' for tables
local t = setmetatable({1, 2, 3}, {__len = function(self) return 42 end})
print(#t)
local u = setmetatable({}, {__len = function() return "not a number" end})
print(#u)
