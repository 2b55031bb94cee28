-- %i is the same as %d; lua5.3 also passes %u through to C
print(string.format("%i", 42))
print(pcall(string.format, "%u", 42))
