-- labels are not visible inside nested functions
print(load("::out:: local function f() goto out end"))
