-- calling a number or string is an error
print(pcall(function() local n = 1; n() end))
print(pcall(function() local s = "str"; s() end))
print(pcall(function() local t = {f = 1}; t.f() end))
