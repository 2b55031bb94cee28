-- 'goto' is a reserved word in 5.3
print(load("local goto = 1"))
