-- sorting values that cannot be compared raises the comparison error
print(pcall(table.sort, {3, "a", 1}))
print(pcall(table.sort, {{}, {}}))
