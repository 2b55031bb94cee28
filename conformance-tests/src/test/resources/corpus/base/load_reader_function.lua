-- load accepts a reader function that returns pieces
local parts = {"return ", "'pie", "ces'", nil}
local i = 0
local f = load(function() i = i + 1; return parts[i] end)
print(f())
