-- float to string conversion of edge values
print(1e15, 1e16, 2^53, -0.0)
print(1/0, -1/0)
print(0.1, 1/3, 1e-300, 5e-324)
print(123456789012.0, 1234567890123456.0)
local nan = 0/0
print(tostring(nan) == tostring(nan), nan ~= nan)
