-- '#' on strings never uses a metamethod
local mt = getmetatable("")
mt.__len = function() return 99 end
print(#"abc")
mt.__len = nil
print(#"abcd")
