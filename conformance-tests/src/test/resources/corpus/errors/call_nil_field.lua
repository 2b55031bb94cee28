-- calling a missing field names it
print(pcall(function() local t = {}; t.fn() end))
print(pcall(function() string.nosuch("x") end))
