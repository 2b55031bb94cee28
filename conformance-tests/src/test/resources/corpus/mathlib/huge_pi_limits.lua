-- math constants
print(math.huge, -math.huge)
print(math.pi)
print(math.maxinteger, math.mininteger)
print(math.maxinteger + 1 == math.mininteger)
