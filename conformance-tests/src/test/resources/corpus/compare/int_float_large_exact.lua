-- comparisons between integers and floats near 2^63 and 2^53 are exact
local mi = math.maxinteger
print(mi < 2^63, mi <= 2^63, mi == 2^63)
print(mi + 0.0 == 2^63)
print(2^53 == 2^53 + 1)
print((1 << 53) + 1 > 2^53)
print(math.mininteger == -2^63)
print(math.mininteger < -2^63)
