-- error(msg, 0) adds no position information
print(pcall(error, "plain", 0))
print(pcall(function() error("plain too", 0) end))
