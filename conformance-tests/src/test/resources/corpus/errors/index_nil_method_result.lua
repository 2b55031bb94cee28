-- indexing the result of a call gives no variable name
local function f() return nil end
print(pcall(function() return f().x end))
