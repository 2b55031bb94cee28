-- math.abs keeps the number subtype; abs(mininteger) wraps
print(math.abs(-5), math.abs(5), math.abs(-2.5), math.abs(-0.0))
print(math.type(math.abs(-5)), math.type(math.abs(-5.0)))
print(math.abs(math.mininteger))
