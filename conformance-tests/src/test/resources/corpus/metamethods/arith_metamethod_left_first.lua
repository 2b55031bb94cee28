-- the first operand's metamethod wins when both have one
local A = setmetatable({}, {__add = function() return "A" end})
local B = setmetatable({}, {__add = function() return "B" end})
print(A + B, B + A, 1 + B, A + 1)
