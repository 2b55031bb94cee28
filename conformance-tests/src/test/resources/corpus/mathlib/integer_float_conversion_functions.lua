-- floor of values outside the integer range stays a float
print(math.floor(2^62), math.type(math.floor(2^62)))
print(math.floor(2^63), math.type(math.floor(2^63)))
print(math.ceil(-2^63), math.type(math.ceil(-2^63)))
