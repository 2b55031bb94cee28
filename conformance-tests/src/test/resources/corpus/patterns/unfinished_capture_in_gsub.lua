-- errors are also reported by gsub and gmatch
print(pcall(string.gsub, "x", "(", ""))
print(pcall(function() for m in string.gmatch("x", "[") do end end))
