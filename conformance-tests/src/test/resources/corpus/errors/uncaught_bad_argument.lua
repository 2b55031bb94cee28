-- uncaught library argument error
print("x")
string.rep()
