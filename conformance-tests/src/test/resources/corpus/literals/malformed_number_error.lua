-- malformed numerals are syntax errors
print(load("return 3x"))
print(load("return 0x"))
print(load("return 1e"))
print(load("return 1..2"))
