-- a step of zero is an error
print(pcall(function() for i = 1, 10, 0 do end end))
print(pcall(function() for i = 1, 10, 0.0 do end end))
