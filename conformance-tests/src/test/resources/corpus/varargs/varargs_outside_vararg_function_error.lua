-- '...' can only be used in a vararg function
print(load("local function f() return ... end"))
