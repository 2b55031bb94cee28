-- gsub with a function; false or nil keeps the original match
print(string.gsub("1 2 3", "%d", function(d) return d * 2 end))
print(string.gsub("a b c", "%a", function(c) if c == "b" then return nil end return c:upper() end))
print(string.gsub("x=1 y=2", "(%w)=(%w)", function(k, v) return v .. "=" .. k end))
print(string.gsub("abc", "b", function() return false end))
