-- assigning nil to existing fields during traversal is allowed
local t = {a = 1, b = 2, c = 3, d = 4}
for k in pairs(t) do t[k] = nil end
print(next(t))
