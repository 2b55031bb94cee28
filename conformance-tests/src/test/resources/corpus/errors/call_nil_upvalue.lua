-- calling a nil upvalue names it
local callback
print(pcall(function() callback() end))
