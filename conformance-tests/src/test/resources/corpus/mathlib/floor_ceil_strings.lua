-- floor/ceil accept numeric strings
print(math.floor("3.7"), math.ceil("3.2"))
print(pcall(function() return math.floor("x") end))
