-- table.unpack without j uses the length operator
local t = setmetatable({}, {__len = function() return 3 end, __index = function(_, i) return i * 2 end})
print(table.unpack(t))
