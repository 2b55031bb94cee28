-- %s on numbers uses the same conversion as tostring
print(string.format("%s|%s|%s", 1e15, 2^53, -0.0))
print(string.format("%5.1s|", 123))
