-- indexing a nil local names it
print(pcall(function() local y; return y.field end))
