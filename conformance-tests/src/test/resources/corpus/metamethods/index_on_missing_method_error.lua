-- calling a missing method on a string reports the method name
print(pcall(function() local s = "x"; return s:nosuch() end))
