-- select requires a number or '#'
print(pcall(select, "x"))
print(pcall(select))
