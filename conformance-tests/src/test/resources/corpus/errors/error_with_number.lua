-- a number error value gets no position and stays a number
local ok, e = pcall(function() error(42) end)
print(ok, e, math.type(e))
