-- uncaught comparison error
print("x")
local a = {} < 1
