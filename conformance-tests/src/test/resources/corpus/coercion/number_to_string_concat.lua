-- numbers become strings with '..' and in string functions
print(10 .. "", 10.5 .. "")
print(string.len(12345))
print(string.upper(1.5))
print(("x"):rep(3) .. 3)
