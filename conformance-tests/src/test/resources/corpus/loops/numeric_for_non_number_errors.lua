-- start, limit and step must be numbers
print(pcall(function() for i = nil, 2 do end end))
print(pcall(function() for i = 1, {} do end end))
print(pcall(function() for i = 1, 2, false do end end))
