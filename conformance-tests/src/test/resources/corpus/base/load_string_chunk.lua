-- load compiles a string into a function
local f = load("return 1 + 2")
print(f())
local g = load("local a, b = ...; return a * b")
print(g(6, 7))
