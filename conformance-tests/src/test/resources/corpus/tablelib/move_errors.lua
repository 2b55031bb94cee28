-- table.move rejects ranges that would overflow
print(pcall(table.move, {}, 1, math.maxinteger, 2))
print(pcall(table.move, {1}, 1, 1, math.maxinteger))
