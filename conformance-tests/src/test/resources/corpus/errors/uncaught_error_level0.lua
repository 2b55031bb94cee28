-- uncaught error with level 0 has no position
print("x")
error("no position", 0)
