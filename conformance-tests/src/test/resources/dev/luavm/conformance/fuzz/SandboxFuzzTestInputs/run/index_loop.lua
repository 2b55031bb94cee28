local t = {} setmetatable(t, {__index = t}) print(pcall(function() return t.x end))
local u = setmetatable({}, {}) getmetatable(u).__index = u print(pcall(function() return u.y end))
