-- tonumber without a base accepts numerals in Lua syntax, else returns nil
print(tonumber("10"), tonumber("10.0"), tonumber("0x1F"), tonumber("1e3"))
print(tonumber("abc"), tonumber("1 2"), tonumber(nil))
print(tonumber(5), tonumber(5.5), tonumber({}))
print(math.type(tonumber("10")), math.type(tonumber("10.0")))
