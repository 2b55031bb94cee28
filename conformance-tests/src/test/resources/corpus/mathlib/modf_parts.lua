-- modf returns the integral part (as a float) and the fraction
print(math.modf(3.7))
print(math.modf(-3.7))
print(math.modf(5))
print(math.modf(math.huge))
print(math.modf(-0.5))
