print(pcall(error), pcall(error, nil), pcall(error, {}), select("#", pcall(error, "x", 2)), xpcall(function() error("e") end, function(m) return "handled: " .. m end))
print(select(-1, 1, 2, 3), pcall(select, 0))
