-- writing with a nil or NaN key is an error
print(pcall(function() local t = {}; t[nil] = 1 end))
print(pcall(function() local t = {}; t[0/0] = 1 end))
print(pcall(rawset, {}, nil, 1))
