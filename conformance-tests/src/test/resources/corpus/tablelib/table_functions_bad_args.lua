-- table functions type-check their first argument
print(pcall(function() return table.concat("abc") end))
print(pcall(function() table.sort(1) end))
print(pcall(function() return table.unpack(nil) end))
