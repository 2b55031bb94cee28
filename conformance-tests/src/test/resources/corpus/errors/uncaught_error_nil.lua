-- error(nil) uncaught
print("x")
error(nil)
