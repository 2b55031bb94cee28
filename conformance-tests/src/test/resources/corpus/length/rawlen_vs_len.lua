-- rawlen ignores __len
local t = setmetatable({1, 2}, {__len = function() return 99 end})
print(#t, rawlen(t))
print(rawlen("abc"))
print(pcall(rawlen, 5))
