-- load returns nil plus the message on syntax errors
local f, err = load("return +")
print(f, err)
print(load("?", "=named"))
