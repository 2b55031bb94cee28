-- indexing a nil upvalue names it
local w
print(pcall(function() return w.field end))
