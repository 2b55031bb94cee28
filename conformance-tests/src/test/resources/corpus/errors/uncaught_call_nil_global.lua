-- uncaught call of an undefined global
print("x")
not_defined()
