-- '#' on a number, nil or boolean is an error
print(pcall(function() local n = 5; return #n end))
print(pcall(function() return #undefinedvar end))
print(pcall(function() local t = {}; return #t.field end))
print(pcall(function() return #true end))
