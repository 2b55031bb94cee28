-- a local is visible only after its declaration statement
local y = "outer"
local y = y .. "+inner"
print(y)
local z = z
print(z)
