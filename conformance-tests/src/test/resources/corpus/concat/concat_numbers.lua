-- numbers are converted to strings by '..'
print(1 .. 2)
print("n=" .. 42)
print(1.0 .. "")
print(-0.0 .. "")
print(2^63 .. "")
print(1e100 .. "|" .. 0.1)
print(math.mininteger .. "")
