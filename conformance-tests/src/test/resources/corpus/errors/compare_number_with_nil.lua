-- comparing a number with nil names both types
print(pcall(function() local t = {}; return 1 < t.x end))
print(pcall(function() local t = {}; return t.x >= 1 end))
