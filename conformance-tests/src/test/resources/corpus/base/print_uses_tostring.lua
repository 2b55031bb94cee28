-- print separates arguments with tabs and calls tostring on each
print(1, "two", nil, true, 4.0)
print()
print(setmetatable({}, {__tostring = function() return "via __tostring" end}))
