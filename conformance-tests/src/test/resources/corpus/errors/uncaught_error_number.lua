-- a number error object is converted to a string by the interpreter
print("x")
error(42)
