-- a tail call may target a library function
local function up(s) return string.upper(s) end
print(up("tail"))
local function sel(...) return select("#", ...) end
print(sel(nil, nil))
