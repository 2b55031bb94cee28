-- max/min return the original argument, keeping its subtype
print(math.max(1, 2.5, 2), math.min(1, 2.5, 0.5))
print(math.max(3, 3.0), math.type(math.max(3, 3.0)))
print(math.max(-0.0, 0) )
print(pcall(math.max))
