-- comparisons yield booleans, which can be compared with == again
print(1 < 2 == true)
print((1 < 2) == (2 < 3))
print("a" .. "b" == "ab")
