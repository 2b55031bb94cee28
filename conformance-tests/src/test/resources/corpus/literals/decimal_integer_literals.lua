-- decimal integer literals are integers
print(0, 42, 1234567890123)
print(math.type(42))
print(9223372036854775807)
print(math.type(9223372036854775807))
