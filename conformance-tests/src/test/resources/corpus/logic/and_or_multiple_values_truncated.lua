-- and/or adjust their operands to one value
local function two() return 1, 2 end
print(two() and two())
print(nil or two())
print(select("#", false or two()))
