-- parameters are locals of the function
local a = "outer"
local function f(a) a = a .. "!"; return a end
print(f("inner"), a)
