print(tostring(nil), tonumber("0x1p4"), tonumber("  10  "), tonumber("10", 2), tonumber("z", 36), tonumber(""), rawequal("a", "a"), rawlen({1, 2}), next({}), type(print))
print(string.format("%s %d", 1.0, 3.0), 10 == "10", #arg)
