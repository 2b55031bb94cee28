-- uncaught assertion failure
print("x")
assert(1 == 2, "one is not two")
