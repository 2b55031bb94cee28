-- __index is not consulted for keys present in the table
local calls = 0
local t = setmetatable({present = 1}, {__index = function() calls = calls + 1 end})
local _ = t.present, t.present
local _ = t.absent
print(calls)
