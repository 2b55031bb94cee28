-- indexing a number or boolean is an error
print(pcall(function() local n = 1; return n.x end))
print(pcall(function() local b = false; b.x = 1 end))
