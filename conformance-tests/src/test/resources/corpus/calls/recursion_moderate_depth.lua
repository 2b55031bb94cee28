-- ordinary (non-tail) recursion of moderate depth works
local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
print(depth(10000))
