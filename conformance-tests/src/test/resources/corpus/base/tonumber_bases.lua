-- tonumber with an explicit base (2..36), letters in either case
print(tonumber("ff", 16), tonumber("FF", 16), tonumber("777", 8))
print(tonumber("zz", 36), tonumber("101", 2), tonumber("  11  ", 2))
print(tonumber("8", 8), tonumber("1.5", 10), tonumber("", 10))
print(tonumber("-ff", 16), tonumber("7fffffffffffffff", 16))
print(tonumber("ffffffffffffffff", 16))
