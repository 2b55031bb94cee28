-- floor and ceil return integers when the result fits
print(math.floor(3.7), math.ceil(3.2), math.floor(-3.7), math.ceil(-3.2))
print(math.type(math.floor(3.7)), math.type(math.ceil(3.2)))
print(math.floor(5), math.ceil(-0.5))
print(math.floor(1e100), math.type(math.floor(1e100)))
print(math.floor(-0.0), math.type(math.floor(-0.0)))
