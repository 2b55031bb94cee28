-- __tostring must return a string
local t = setmetatable({}, {__tostring = function() return 42 end})
print(pcall(tostring, t))
