-- runtime errors report the line where they happen
local function level3() local t = nil; return t[1] end
local function level2() return level3() + 1 end
print(pcall(level2))
