-- math.tointeger converts only values with an exact integer representation
print(math.tointeger(3.0), math.tointeger(3.5), math.tointeger(2^63))
print(math.tointeger(5), math.tointeger("8"), math.tointeger({}))
print(math.tointeger(-2^63))
