-- a space is needed before '..' after a number literal
print(1 .. 2)
print(load("return 1..2"))
print(1.5 .. "x")
