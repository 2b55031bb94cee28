-- math.tointeger and '| 0' convert floats with integral values only
print(math.tointeger(3.0), math.tointeger(3.5), math.tointeger(-0.0))
print(3.0 | 0, math.type(3.0 | 0))
print(pcall(function() local x = 2^63; return x | 0 end))
print(pcall(function() local x = 1/0; return x & 1 end))
print(pcall(function() local x = 0/0; return x ~ 1 end))
