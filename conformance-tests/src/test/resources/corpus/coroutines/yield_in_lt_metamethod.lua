-- yielding inside __lt is allowed; the resumed value becomes the comparison result
local mt = {__lt = function(a, b) return coroutine.yield("comparing") end}
local a, b = setmetatable({}, mt), setmetatable({}, mt)
local co = coroutine.wrap(function() if a < b then return "less" else return "not less" end end)
print(co())
print(co(true))
