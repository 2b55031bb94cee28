-- pcall returns true followed by all results
print(pcall(function() return 1, 2, 3 end))
print(pcall(function() end))
print(select("#", pcall(function() end)))
