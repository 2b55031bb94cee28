-- iterating with a non-function is an error
print(pcall(function() for x in 5 do end end))
print(pcall(function() local t = {}; for x in t do end end))
