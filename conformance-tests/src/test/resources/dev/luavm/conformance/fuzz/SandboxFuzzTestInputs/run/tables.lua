local t = {} for i = 1, 100 do t[i] = (i * 7919) % 101 end
table.sort(t) table.sort(t, function(a, b) return a > b end)
print(table.concat(t, ","), table.unpack(t, 1, 5))
table.insert(t, 1, 0) print(table.remove(t), #t, select("#", table.unpack(t)))
print(pcall(table.sort, {3, 2, 1}, function(a, b) return true end))
