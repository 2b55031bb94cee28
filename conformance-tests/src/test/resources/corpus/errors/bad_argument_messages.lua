-- library argument errors name the argument and the function
print(pcall(function() return string.rep() end))
print(pcall(function() return ("x"):rep({}) end))
print(pcall(function() return math.floor("a") end))
print(pcall(function() return table.concat({}, 1, 2, 3, 4) end))
print(pcall(function() return setmetatable(1, {}) end))
