-- unpacking an enormous range fails cleanly
print(pcall(table.unpack, {}, 1, 1e8))
print(pcall(table.unpack, {}, math.mininteger, math.maxinteger))
