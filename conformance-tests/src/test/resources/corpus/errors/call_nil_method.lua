-- calling a missing method names it
print(pcall(function() local obj = {}; obj:m() end))
