-- decimal float literals: with point, with exponent, or both
print(1.0, .5, 5., 3.25)
print(1e2, 1E2, 1e-2, 2.5e+3)
print(math.type(1e2), math.type(1.0), math.type(.5))
print(0.0, 1e308, 1e309)
