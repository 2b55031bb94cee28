-- assigning into a nil value is an index error too
print(pcall(function() local y; y.field = 1 end))
print(pcall(function() local t = {}; t.a.b = 1 end))
