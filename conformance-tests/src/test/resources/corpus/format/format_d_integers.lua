-- %d formats integers; floats with integral values are accepted
print(string.format("%d", 42))
print(string.format("%d", -7))
print(string.format("%d", 3.0))
print(string.format("%d", math.mininteger))
print(string.format("%d", "10"))
