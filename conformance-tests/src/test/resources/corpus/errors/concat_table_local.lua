-- concatenating a table names the local
print(pcall(function() local t = {}; return "a" .. t end))
