-- ipairs uses normal (non-raw) indexing in 5.3, so __index is honoured
local t = setmetatable({}, {__index = function(_, i) if i <= 3 then return i * 10 end end})
for i, v in ipairs(t) do print(i, v) end
