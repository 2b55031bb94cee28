-- mode 'b' refuses text chunks
print(load("return 1", "x", "b"))
print(load("return 1", "x", "t") ~= nil)
