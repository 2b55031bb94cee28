-- concatenating a table is an error that names the variable
print(pcall(function() local t = {}; return "x" .. t end))
print(pcall(function() local t = {}; return t .. "x" end))
print(pcall(function() local u = {f = {}}; return "x" .. u.f end))
