-- gsub with a table looks up the first capture (or the match)
local t = {name = "Lua", version = "5.3"}
print(string.gsub("$name $version $missing", "%$(%w+)", t))
print(string.gsub("a b", "%w", {a = 1, b = true}) )
