-- string functions accept numbers and convert them; numbers have no methods
print(string.len(100), string.rep(1, 3), string.sub(12345, 2, 3))
print(pcall(function() local n = 12; return n:rep(2) end))
