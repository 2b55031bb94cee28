-- __call must ultimately be callable
local t = setmetatable({}, {__call = 1})
print(pcall(function() return t() end))
