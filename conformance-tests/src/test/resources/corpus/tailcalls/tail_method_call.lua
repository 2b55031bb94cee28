-- method calls in tail position are tail calls too
local obj = {}
function obj:count(n) if n == 0 then return "done" end return self:count(n - 1) end
print(obj:count(200000))
