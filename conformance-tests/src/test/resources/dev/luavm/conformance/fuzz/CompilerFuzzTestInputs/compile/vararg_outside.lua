local function f(...) local a = {...} local b = select("#", ...) return ... end
local function g() return ... end
