-- ordering with nil is an error
print(pcall(function() local x; return 1 < x end))
print(pcall(function() return nil > 2 end))
print(pcall(function() return nil < nil end))
