-- __bnot implements unary '~'
local x = setmetatable({}, {__bnot = function(a) return "bnot called" end})
print(~x)
print(pcall(function() return ~{} end))
