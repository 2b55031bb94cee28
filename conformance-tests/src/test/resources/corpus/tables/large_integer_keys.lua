-- huge integer keys and float keys beyond 2^63 are valid
local t = {}
t[math.maxinteger] = "max"
t[math.mininteger] = "min"
t[2^64] = "float"
print(t[math.maxinteger], t[math.mininteger], t[2^64])
print(t[math.maxinteger + 0.0])
