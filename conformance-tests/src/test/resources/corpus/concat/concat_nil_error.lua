-- concatenating nil or a boolean is an error
print(pcall(function() return "x" .. missing end))
print(pcall(function() local b = true; return "x" .. b end))
print(pcall(function() return 1 .. nil end))
