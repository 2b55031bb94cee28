-- precedence: not > comparison > and > or
print(true or false and false)
print((true or false) and false)
print(not nil and 1)
print(1 == 1 and 2 == 2 or false)
print(nil or false and 1)
