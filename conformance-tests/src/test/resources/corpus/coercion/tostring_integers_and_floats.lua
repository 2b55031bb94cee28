-- tostring distinguishes integers and floats
print(tostring(1), tostring(1.0), tostring(-0.0))
print(tostring(1e15), tostring(1e16), tostring(2^53))
print(tostring(1/0), tostring(-1/0))
print(tostring(3.14159265358979), tostring(100/2))
print(tostring(math.maxinteger), tostring(math.mininteger))
print(tostring(1e-5), tostring(123e-7))
