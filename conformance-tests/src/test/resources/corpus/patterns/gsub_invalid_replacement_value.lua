-- replacement values must be strings or numbers (or false/nil)
print(pcall(string.gsub, "abc", "b", function() return {} end))
print(pcall(string.gsub, "abc", "b", "%2"))
print(pcall(string.gsub, "abc", "(b)", "%9"))
