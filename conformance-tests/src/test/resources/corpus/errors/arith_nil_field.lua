-- arithmetic on a nil field names the field
print(pcall(function() local t = {}; return t.x + 1 end))
print(pcall(function() local t = {}; return 2 * t.count end))
