-- __index tables are followed through several levels
local base = {greet = function() return "hi" end}
local mid = setmetatable({}, {__index = base})
local obj = setmetatable({}, {__index = mid})
print(obj.greet())
print(obj.none)
