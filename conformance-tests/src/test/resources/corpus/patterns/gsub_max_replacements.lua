-- the fourth argument limits the number of replacements
print(string.gsub("aaaa", "a", "b", 2))
print(string.gsub("aaaa", "a", "b", 0))
print(string.gsub("abc", "x", "y"))
