-- library functions accept floats with an integral value where integers are expected
print(string.rep("ab", 2.0))
print(string.sub("hello", 2.0, 3))
print(("x"):rep("3"))
print(pcall(function() return string.rep("x", 2.5) end))
print(pcall(function() return string.sub("x", "a") end))
