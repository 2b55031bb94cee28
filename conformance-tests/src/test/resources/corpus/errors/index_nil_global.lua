-- indexing an undefined global names it
print(pcall(function() return x.field end))
