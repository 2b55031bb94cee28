-- a decimal integer literal that does not fit becomes a float
print(9223372036854775808)
print(math.type(9223372036854775808))
print(-9223372036854775808, math.type(-9223372036854775808))
print(math.mininteger == -9223372036854775808)
