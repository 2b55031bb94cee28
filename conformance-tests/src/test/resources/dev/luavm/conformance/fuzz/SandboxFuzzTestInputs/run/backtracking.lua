local s = string.rep("a", 40) print(s:find(string.rep("a*", 20) .. "b"))
