-- uncaught arithmetic error on a global
print("x")
local r = 1 + undefined_number
