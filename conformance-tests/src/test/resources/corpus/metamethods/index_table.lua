-- __index as a table: missing keys are looked up there
local defaults = {color = "red", size = 1}
local t = setmetatable({size = 5}, {__index = defaults})
print(t.color, t.size, t.other)
print(rawget(t, "color"))
