-- table.concat rejects non-string, non-number values
print(pcall(function() return table.concat({1, {}, 3}) end))
print(pcall(function() return table.concat({1, 2}, ",", 1, 3) end))
print(pcall(function() return table.concat({true}) end))
