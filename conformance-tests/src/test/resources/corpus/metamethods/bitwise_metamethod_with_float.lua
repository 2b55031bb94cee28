-- a bitwise op on a non-integral float tries the metamethod of the other operand
local x = setmetatable({}, {__bor = function(a, b) return "meta" end})
print(1.5 | x)
print(pcall(function() return 1.5 | 2 end))
