-- 'c and x or y' returns y when x is false or nil
local function pick(c, x, y) return c and x or y end
print(pick(true, "x", "y"))
print(pick(false, "x", "y"))
print(pick(true, false, "y"))
print(pick(true, nil, "y"))
