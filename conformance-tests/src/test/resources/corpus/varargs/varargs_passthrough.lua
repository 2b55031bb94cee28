-- '...' can be passed along unchanged, nils included
local function inner(...) return select("#", ...), ... end
local function outer(...) return inner(...) end
print(outer(1, nil, nil))
