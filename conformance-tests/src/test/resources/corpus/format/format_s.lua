-- %s uses tostring; precision truncates
print(string.format("%s %s %s", "str", 10, 1.5))
print(string.format("%s %s", nil, true))
print(string.format("[%5s][%-5s]", "ab", "ab"))
print(string.format("%.3s", "abcdef"))
print(string.format("%s", setmetatable({}, {__tostring = function() return "obj" end})))
