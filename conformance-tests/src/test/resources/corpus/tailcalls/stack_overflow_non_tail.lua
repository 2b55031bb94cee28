-- unbounded non-tail recursion raises a stack overflow error
local function inf(n) return 1 + inf(n + 1) end
local ok, msg = pcall(inf, 1)
print(ok, msg:find("stack overflow") ~= nil)
