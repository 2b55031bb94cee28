-- tail calls passing '...' along
local function last(...) if select("#", ...) <= 1 then return ... end return last(select(2, ...)) end
print(last(1, 2, 3, 4, 5))
local function countdown(n, ...) if n == 0 then return select("#", ...) end return countdown(n - 1, ...) end
print(countdown(100000, "a", "b"))
