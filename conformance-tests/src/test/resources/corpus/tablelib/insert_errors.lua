-- table.insert checks the position and the argument count
print(pcall(function() table.insert({1, 2}, 5, "x") end))
print(pcall(function() table.insert({1, 2}, 0, "x") end))
print(pcall(function() table.insert({}, 1, 2, 3) end))
print(pcall(function() table.insert(nil, 1) end))
print(pcall(function() table.insert({}) end))
